import r2wc from '@r2wc/react-to-web-component';
import { useCallback, useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import { languageReady } from '../i18n/ready';
import { sharedSheet } from '../styles/sheet';
import { ElementRoot, hostOf, type CommonProps } from '../ui/element-root';
import type { LazyScreen } from '../ui/lazy-screen';

/**
 * How an attribute becomes a prop. `string`, `number`, `json` and `method` are r2wc's (it parses an
 * attribute set to a non-empty value); `boolean` is the element's own, with HTML's rule (`isOn`).
 */
type PropType = 'string' | 'number' | 'boolean' | 'json' | 'method';

const COMMON_PROPS = { issuer: 'string', brand: 'string', lang: 'string', basePath: 'string' } as const;

/**
 * How long an element waits for its first screen's data (its language, and whatever `firstData` names)
 * before it renders anyway and shows its spinner. Below this a spinner would only flash, and each extra
 * commit costs the page time before its form is usable.
 */
export const FIRST_SCREEN_WAIT_MS = 1000;

/**
 * A boolean attribute is on when present, whatever its value, as in HTML (`<acct-login redirect>`);
 * `"false"` (any case) is off too, so markup written as `redirect="false"` still means off.
 */
function isOn(value: string | null): boolean {
  return value !== null && value.trim().toLowerCase() !== 'false';
}

/** `returnUrl` → `return-url`: the attribute of a prop, named as r2wc names it. */
function attributeOf(prop: string): string {
  return prop.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** An element's wait for its first screen: started by its first render, settled once. */
interface FirstScreen {
  ready: boolean;
  opened: Promise<void>;
}
const firstScreens = new WeakMap<HTMLElement, FirstScreen>();

function firstScreenOf(
  host: HTMLElement,
  firstData: ((element: HTMLElement) => Promise<unknown> | undefined) | undefined,
): FirstScreen {
  const known = firstScreens.get(host);
  if (known) return known;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const capped = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_SCREEN_WAIT_MS)));
  const data = Promise.all([languageReady(host.getAttribute('lang')), firstData?.(host)]);
  const open = () => {
    clearTimeout(timer);
    wait.ready = true;
  };
  // A failed lookup opens at once too: the screen reports it.
  const wait: FirstScreen = { ready: false, opened: Promise.race([data, capped]).then(open, open) };
  firstScreens.set(host, wait);
  return wait;
}

/**
 * The custom-element class for a screen component: r2wc in an open shadow root, the shared
 * constructable stylesheet adopted, the common attributes plus the element's own, and `ElementRoot`
 * around the screen.
 *
 * The tree renders nothing until its first screen can render (see `FIRST_SCREEN_WAIT_MS`): the
 * element's language is in, the screen's chunk if it is a `lazyScreen`, and the data `firstData` waits
 * for (the sign-in element's team, the portal route's chunks). So the first commit with content is the real screen, not a spinner replaced a moment later. The wait is per
 * element: after a reconnection (which r2wc mounts anew) the screen renders at once.
 *
 * Boolean props are read from their attributes by the tree itself (`isOn`), not parsed by r2wc, which
 * takes an empty value for no value; the element's property of the same name reflects the attribute.
 */
export function elementClass<P extends object>(
  Screen: ComponentType<P>,
  props: Partial<Record<Exclude<keyof P, keyof CommonProps>, PropType>> = {},
  firstData?: (element: HTMLElement) => Promise<unknown> | undefined,
): ElementConstructor<P & CommonProps> {
  // A screen in a lazily loaded chunk is part of the first screen's data: loaded before the first
  // render, it renders without a Suspense fallback (see lazyScreen).
  const preload = (Screen as Partial<LazyScreen<P>>).preload;
  const screenData = preload
    ? (element: HTMLElement) => Promise.all([preload(), firstData?.(element)])
    : firstData;
  const types = Object.entries(props) as Array<[string, PropType]>;
  const flags = types
    .filter(([, type]) => type === 'boolean')
    .map(([prop]) => ({ prop, attribute: attributeOf(prop) }));
  // r2wc parses a value attribute when it is set, and keeps the last value when it is removed or
  // emptied: the tree reads whether each has a value, so a removed `lang` or `brand` means the default.
  const valued = [
    ...Object.keys(COMMON_PROPS),
    ...types.filter(([, type]) => type !== 'boolean' && type !== 'method').map(([prop]) => prop),
  ].map((prop) => ({ prop, attribute: attributeOf(prop) }));
  const watched = [...flags, ...valued].map(({ attribute }) => attribute);
  /** Each flag on or off, then each value attribute set or not, as 1s and 0s: a comparable snapshot. */
  const readAttributes = (host: HTMLElement) =>
    [
      ...flags.map(({ attribute }) => isOn(host.getAttribute(attribute))),
      ...valued.map(({ attribute }) => Boolean(host.getAttribute(attribute))),
    ]
      .map((bit) => (bit ? '1' : '0'))
      .join('');

  function Rooted(elementProps: P & CommonProps) {
    const host = hostOf(elementProps.container);
    const firstScreen = firstScreenOf(host, screenData);
    // State, not an external store (whose updates render synchronously): the screen renders at the
    // default priority of r2wc's own renders, as when r2wc mounted it once the data was in.
    const [ready, setReady] = useState(firstScreen.ready);
    useEffect(() => {
      if (ready) return;
      let mounted = true;
      void firstScreen.opened.then(() => mounted && setReady(true));
      return () => {
        mounted = false;
      };
    }, [firstScreen, ready]);
    const watchAttributes = useCallback(
      (changed: () => void) => {
        const observer = new MutationObserver(changed);
        observer.observe(host, { attributeFilter: watched });
        return () => observer.disconnect();
      },
      [host],
    );
    const bits = useSyncExternalStore(watchAttributes, () => readAttributes(host));
    if (!ready) return null;
    const flagProps = Object.fromEntries(flags.map(({ prop }, index) => [prop, bits[index] === '1']));
    const removed = valued.filter((_, index) => bits[flags.length + index] === '0');
    const props = { ...elementProps, ...Object.fromEntries(removed.map(({ prop }) => [prop, undefined])) };
    return (
      <ElementRoot props={props}>
        <Screen {...props} {...flagProps} />
      </ElementRoot>
    );
  }
  const parsed = types.filter(([, type]) => type !== 'boolean');
  // r2wc's option types are keyed by the component's props; ours are the common ones plus `props`.
  const Base = r2wc<P & CommonProps>(Rooted, {
    shadow: 'open',
    props: { ...COMMON_PROPS, ...Object.fromEntries(parsed) } as Record<string, PropType> as never,
  });
  const Element = class extends (Base as typeof HTMLElement) {
    constructor() {
      super();
      const root = this.shadowRoot;
      if (root) root.adoptedStyleSheets = [sharedSheet()];
    }
  };
  for (const { prop, attribute } of flags) {
    Object.defineProperty(Element.prototype, prop, {
      configurable: true,
      enumerable: true,
      get(this: HTMLElement) {
        return isOn(this.getAttribute(attribute));
      },
      // A string follows the attribute's rule (React sets `redirect="false"` as the property).
      set(this: HTMLElement, value: unknown) {
        const on = typeof value === 'string' ? isOn(value) : Boolean(value);
        if (!on) this.removeAttribute(attribute);
        else if (!isOn(this.getAttribute(attribute))) this.setAttribute(attribute, '');
      },
    });
  }
  return Element as unknown as ElementConstructor<P & CommonProps>;
}

/** The element's properties: the screen's props (strings, numbers…) without r2wc's container. */
export type ElementProperties<P> = Omit<P, 'container'>;
export type ElementConstructor<P> = new () => HTMLElement & ElementProperties<P>;

/** Define a tag once (a second copy of the bundle on the page must not throw). */
export function define(tag: string, element: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, element);
}
