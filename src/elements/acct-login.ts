import { ElementFrame } from '../ui/element-frame';
import { define, elementClass } from './define';

/**
 * Sign-in: team entry, sign-in, forgot password, reset password and the error variant.
 *
 * @tag acct-login
 * @summary Team entry and sign-in, embeddable on partner sites.
 * @attr {string} team - The team to sign in to; without it the team entry screen comes first.
 * @attr {string} return-url - Where to go after signing in (same-origin paths only).
 */
export class AcctLoginElement extends elementClass(ElementFrame, { team: 'string', returnUrl: 'string' }) {}

define('acct-login', AcctLoginElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-login': AcctLoginElement;
  }
}
