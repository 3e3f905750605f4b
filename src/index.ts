/**
 * acct-elements: importing this module defines every element.
 *
 * ```html
 * <script type="module" src="/dist/acct-elements.js"></script>
 * <acct-login team="acme"></acct-login>
 * ```
 */
// First: starts the page language's chunk download while the rest evaluates.
import './i18n/prefetch';
import './elements/jsx';
export { AcctPortalElement } from './elements/acct-portal';
export { AcctHeaderElement } from './elements/acct-header';
export { AcctLoginElement } from './elements/acct-login';
export { AcctManageElement } from './elements/acct-manage';
export { AcctTokenElement } from './elements/acct-token';
export type { AcctEventDetails, AcctEventMap, AcctEventName } from './ui/events';
export type { AcctCommonAttributes, AcctLoginAttributes } from './elements/jsx';
