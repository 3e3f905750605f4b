import { ElementFrame } from '../ui/element-frame';
import { define, elementClass } from './define';

/**
 * The manage area: personal info, password, third-party accounts, QR login, and the team screens.
 *
 * @tag acct-manage
 * @summary Account self-service for a signed-in user.
 */
export class AcctManageElement extends elementClass(ElementFrame) {}

define('acct-manage', AcctManageElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-manage': AcctManageElement;
  }
}
