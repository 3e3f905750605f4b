import { TeamScreen } from '../features/login/lazy-screens';
import { LoginElement } from '../features/login/login-element';
import { loginFirstData } from '../features/login/prefetch';
import { define, elementClass } from './define';

/**
 * Sign-in: team entry, sign-in, forgot password, reset password and the error variant.
 *
 * @tag acct-login
 * @summary Team entry and sign-in, embeddable on partner sites.
 * @attr {string} team - The team to sign in to; without it the team entry screen comes first.
 * @attr {string} return-url - Where to go after signing in (same-origin paths only; checked by the ReturnUrl rule).
 * @attr {boolean} redirect - After signing in, navigate this page to `return-url` (or `/`). A boolean attribute,
 *   as in HTML: present (`<acct-login redirect>`, any value) is on; absent, or `redirect="false"`, is off, and the
 *   element only dispatches `acct-signed-in` and shows who is signed in. The `redirect` property reflects it.
 * @fires acct-signed-in - A user signed in: `detail` is `{ team, email }`.
 */
export class AcctLoginElement extends elementClass(
  LoginElement,
  { team: 'string', returnUrl: 'string', redirect: 'boolean' },
  // Without a team the first screen is the team screen, a chunk of its own.
  (element) => loginFirstData(element) ?? TeamScreen.preload(),
) {}

define('acct-login', AcctLoginElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-login': AcctLoginElement;
  }
}
