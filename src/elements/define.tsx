import r2wc from '@r2wc/react-to-web-component';
import type { ComponentType } from 'react';
import { languageReady } from '../i18n/ready';
import { sharedSheet } from '../styles/sheet';
import { ElementRoot, type CommonProps } from '../ui/element-root';

/** Attribute parsing types of r2wc (attribute → prop). Booleans need `="true"`; see the README. */
type PropType = 'string' | 'number' | 'boolean' | 'json' | 'method';

const COMMON_PROPS = { issuer: 'string', brand: 'string', lang: 'string', basePath: 'string' } as const;

/**
 * How long an element waits for its first screen's data (its language, and whatever `firstData` names)
 * before it mounts anyway and shows its spinner. Below this a spinner would only flash, and each extra
 * commit costs the page time before its form is usable.
 */
export const FIRST_SCREEN_WAIT_MS = 1000;

/**
 * r2wc's own method that mounts the React root (first call) or updates its props (later calls)
 * (@r2wc/core 2.x, pinned; the bundle tests fail if it changes).
 */
const R2WC_RENDER = Symbol.for('r2wc.render');
type R2wcRender = (this: HTMLElement) => void;

/**
 * The custom-element class for a screen component: r2wc in an open shadow root, the shared
 * constructable stylesheet adopted, the common attributes plus the element's own, and `ElementRoot`
 * around the screen.
 *
 * The React root is mounted once the first screen can render (see `FIRST_SCREEN_WAIT_MS`): the
 * element's language is in, and the data `firstData` waits for (the sign-in element's team). So the
 * first commit is the real screen, not a spinner replaced a moment later.
 */
export function elementClass<P extends object>(
  Screen: ComponentType<P>,
  props: Partial<Record<Exclude<keyof P, keyof CommonProps>, PropType>> = {},
  firstData?: (element: HTMLElement) => Promise<unknown> | undefined,
): ElementConstructor<P & CommonProps> {
  function Rooted(elementProps: P & CommonProps) {
    return (
      <ElementRoot props={elementProps}>
        <Screen {...elementProps} />
      </ElementRoot>
    );
  }
  // r2wc's option types are keyed by the component's props; ours are the common ones plus `props`.
  const Base = r2wc<P & CommonProps>(Rooted, {
    shadow: 'open',
    props: { ...COMMON_PROPS, ...props } as Record<string, PropType> as never,
  });
  const Element = class extends (Base as typeof HTMLElement) {
    constructor() {
      super();
      const root = this.shadowRoot;
      if (root) root.adoptedStyleSheets = [sharedSheet()];
    }
  };
  const render = (Base.prototype as unknown as Record<symbol, R2wcRender>)[R2WC_RENDER];
  if (typeof render !== 'function') throw new Error('@r2wc/core changed: its render method is gone');
  // Until its first mount, an element waits; r2wc keeps the props it is given meanwhile, and the mount
  // uses the latest. After it (and after a reconnection, which r2wc mounts anew), r2wc renders as usual.
  const mounted = new WeakMap<HTMLElement, boolean>();
  Object.defineProperty(Element.prototype, R2WC_RENDER, {
    configurable: true,
    value(this: HTMLElement) {
      const state = mounted.get(this);
      if (state) return render.call(this);
      if (state === false) return; // waiting
      mounted.set(this, false);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const capped = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_SCREEN_WAIT_MS)));
      const data = Promise.all([languageReady(this.getAttribute('lang')), firstData?.(this)]);
      const mount = () => {
        clearTimeout(timer);
        mounted.set(this, true);
        render.call(this);
      };
      // A failed lookup mounts at once too: the screen reports it.
      void Promise.race([data, capped]).then(mount, mount);
    },
  });
  return Element as unknown as ElementConstructor<P & CommonProps>;
}

/** The element's properties: the screen's props (strings, numbers…) without r2wc's container. */
export type ElementProperties<P> = Omit<P, 'container'>;
export type ElementConstructor<P> = new () => HTMLElement & ElementProperties<P>;

/** Define a tag once (a second copy of the bundle on the page must not throw). */
export function define(tag: string, element: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, element);
}
