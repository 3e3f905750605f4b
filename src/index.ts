/**
 * acct-elements: importing this module defines every element.
 *
 * ```html
 * <script type="module" src="/dist/acct-elements.js"></script>
 * <acct-login team="acme"></acct-login>
 * ```
 */
// First, while the rest evaluates: every <acct-login team> asks for its team's details, and the page
// language's chunk is requested (features/login/prefetch.ts, i18n/prefetch.ts).
import './features/login/prefetch';
import './i18n/prefetch';
import './elements/jsx';
export { AcctPortalElement } from './elements/acct-portal';
export { AcctHeaderElement } from './elements/acct-header';
export { AcctLoginElement } from './elements/acct-login';
export { AcctManageElement } from './elements/acct-manage';
export { AcctTokenElement } from './elements/acct-token';
export type { AcctEventDetails, AcctEventMap, AcctEventName } from './ui/events';
export type { AcctCommonAttributes, AcctLoginAttributes } from './elements/jsx';
