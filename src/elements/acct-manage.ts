import { lazyScreen } from '../ui/lazy-screen';
import { define, elementClass } from './define';

// The manage area and each of its sections are lazily loaded chunks:
// the element's own chunk is loaded before it first shows.
const ComposedManageElement = lazyScreen(() => import('../portal/manage-composed'));

/**
 * The manage area: personal info, password, third-party accounts, QR login, and the team screens.
 *
 * @tag acct-manage
 * @summary Account self-service for a signed-in user.
 * @csspart card - Each panel.
 * @csspart button - Buttons.
 * @csspart input - Text inputs.
 * @csspart dialog - The change-name and change-password dialogs.
 * @csspart snackbar - A notice.
 */
export class AcctManageElement extends elementClass(ComposedManageElement) {}

define('acct-manage', AcctManageElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-manage': AcctManageElement;
  }
}
