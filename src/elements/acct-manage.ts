import { ComposedManageElement } from '../portal/manage-sections';
import { define, elementClass } from './define';

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
// The manage area and each of its sections are lazily loaded chunks.
export class AcctManageElement extends elementClass(ComposedManageElement) {}

define('acct-manage', AcctManageElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-manage': AcctManageElement;
  }
}
