import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { AcctEventMap } from '../ui/events';

/** The attributes common to every element, as a React host writes them. */
export interface AcctCommonAttributes extends DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> {
  issuer?: string;
  brand?: 'intoware' | 'onsight' | 'schenck';
  lang?: string;
  'base-path'?: string;
}

export interface AcctLoginAttributes extends AcctCommonAttributes {
  team?: string;
  'return-url'?: string;
  /**
   * After signing in, navigate the page to `return-url` (or `/`). On when present (`redirect`,
   * `redirect={true}`, any text); off when absent, `false` or `"false"`.
   */
  redirect?: 'true' | 'false' | boolean;
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- the JSX namespace is React's own shape
  namespace JSX {
    interface IntrinsicElements {
      'acct-portal': AcctCommonAttributes;
      'acct-header': AcctCommonAttributes;
      'acct-login': AcctLoginAttributes;
      'acct-manage': AcctCommonAttributes;
      'acct-token': AcctCommonAttributes;
    }
  }
}

declare global {
  // Typed `addEventListener('acct-…', e => e.detail)` on every element and ancestor, the document and
  // the window (the events bubble and are composed, so a page can listen at any of them).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- interface merging needs the body
  interface HTMLElementEventMap extends AcctEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- interface merging needs the body
  interface DocumentEventMap extends AcctEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- interface merging needs the body
  interface WindowEventMap extends AcctEventMap {}
}
