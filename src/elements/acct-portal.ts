import { captureTokenFragment } from '../features/token/fragment';
import { lazyScreen } from '../ui/lazy-screen';
import { define, elementClass } from './define';

/**
 * The hosted portal: header, the routed screen and footer, following the route table of the
 * specification, mounted under `base-path`.
 *
 * @tag acct-portal
 * @summary The full sign-in and account portal (router element).
 * @fires acct-navigate - The portal moved to another route: `detail` is `{ path }` (path and query).
 * @fires acct-signed-in - A user signed in: `detail` is `{ team, email }`.
 * @fires acct-signed-out - The user signed out from the header: `detail` is `{ reason }`.
 * @csspart header - The header bar.
 * @fires acct-theme-change - The theme switch changed the theme: `detail` is `{ theme }`.
 * @fires acct-language-change - The language menu changed the language: `detail` is `{ language }`.
 * @csspart menu - A header menu's popup.
 * @csspart footer - The footer.
 * @csspart card - The card around a form, each manage panel.
 * @csspart dialog - The manage dialogs.
 * @csspart snackbar - A notice.
 * @csspart button - Buttons.
 * @csspart input - Text inputs.
 */
export class AcctPortalElement extends elementClass(
  // A lazily loaded chunk: the router, header and footer are not part of a login-only page (design §5).
  lazyScreen<object>(() => import('../portal/portal-app').then(({ PortalApp }) => ({ default: PortalApp }))),
  {},
  // The route's chunks and data, once the portal's own chunk is in.
  (element) => import('../portal/portal-app').then(({ portalFirstData }) => portalFirstData(element)),
) {
  constructor() {
    super();
    // Design §3: the token success page's tokens leave the address at once, not after the session check
    // and the lazily loaded manage and token chunks.
    captureTokenFragment();
  }
}

define('acct-portal', AcctPortalElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-portal': AcctPortalElement;
  }
}
