import type { ThemeName } from '../contract/tokens';
import type { Language } from '../contract/languages';

/** The `detail` of each `acct-*` event. */
export interface AcctEventDetails {
  /** A user signed in through the element. */
  'acct-signed-in': { team: string; email: string };
  /** The user signed out (or the session ended). */
  'acct-signed-out': { reason: 'user' | 'session-ended' };
  /** The element moved to another route (path relative to the page, including search). */
  'acct-navigate': { path: string };
  /** The theme switch changed the theme. */
  'acct-theme-change': { theme: ThemeName };
  /** The language menu changed the language. */
  'acct-language-change': { language: Language };
}

export type AcctEventName = keyof AcctEventDetails;

/** The events as seen by listeners: `CustomEvent`s with a typed `detail`. */
export type AcctEventMap = { [K in AcctEventName]: CustomEvent<AcctEventDetails[K]> };

/**
 * Dispatch an `acct-*` event from the host element: bubbles and composed, so it crosses the shadow
 * boundary and reaches listeners on the element and its ancestors. Returns `false` if a listener called
 * `preventDefault()` (the events are cancelable so hosts can take over navigation).
 */
export function emit<K extends AcctEventName>(host: Element, type: K, detail: AcctEventDetails[K]): boolean {
  return host.dispatchEvent(
    new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable: true }),
  );
}
