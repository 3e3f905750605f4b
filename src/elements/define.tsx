import r2wc from '@r2wc/react-to-web-component';
import type { ComponentType } from 'react';
import { sharedSheet } from '../styles/sheet';
import { ElementRoot, type CommonProps } from '../ui/element-root';

/** Attribute parsing types of r2wc (attribute → prop). Booleans need `="true"`; see the README. */
type PropType = 'string' | 'number' | 'boolean' | 'json' | 'method';

const COMMON_PROPS = { issuer: 'string', brand: 'string', lang: 'string', basePath: 'string' } as const;

/**
 * The custom-element class for a screen component: r2wc in an open shadow root, the shared
 * constructable stylesheet adopted, the common attributes plus the element's own, and `ElementRoot`
 * around the screen.
 */
export function elementClass<P extends object>(
  Screen: ComponentType<P>,
  props: Partial<Record<Exclude<keyof P, keyof CommonProps>, PropType>> = {},
  preload?: (props: P, issuer: string) => void,
): ElementConstructor<P & CommonProps> {
  function Rooted(elementProps: P & CommonProps) {
    return (
      <ElementRoot props={elementProps} preload={preload && ((issuer) => preload(elementProps, issuer))}>
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
  return Element as unknown as ElementConstructor<P & CommonProps>;
}

/** The element's properties: the screen's props (strings, numbers…) without r2wc's container. */
export type ElementProperties<P> = Omit<P, 'container'>;
export type ElementConstructor<P> = new () => HTMLElement & ElementProperties<P>;

/** Define a tag once (a second copy of the bundle on the page must not throw). */
export function define(tag: string, element: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, element);
}
