import { lazy } from 'react';
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
export class AcctManageElement extends elementClass(
  // A lazily loaded chunk: pages without the manage area never download it.
  lazy(() => import('../features/manage/manage-element')),
) {}

define('acct-manage', AcctManageElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-manage': AcctManageElement;
  }
}
