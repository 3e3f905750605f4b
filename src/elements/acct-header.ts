import { lazyScreen } from '../ui/lazy-screen';
import { define, elementClass } from './define';

/**
 * The shared suite header: logo, go-to-dashboard, user menu, app switcher, theme switch and privacy link.
 *
 * @tag acct-header
 * @summary The suite header for any app page.
 * @fires acct-signed-out - The user signed out: `detail` is `{ reason }`.
 * @csspart header - The header bar.
 * @fires acct-theme-change - The theme switch changed the theme: `detail` is `{ theme }`.
 * @fires acct-language-change - The language menu changed the language: `detail` is `{ language }`.
 * @csspart menu - A menu's popup.
 * @csspart button - Buttons.
 */
export class AcctHeaderElement extends elementClass(
  // A lazily loaded chunk: a page with only <acct-login> (a partner's sign-in) never downloads the header,
  // its menus and icons (design §5 budget for the login-only page).
  lazyScreen<object>(() =>
    import('../features/header/header-element').then(({ HeaderElement }) => ({ default: HeaderElement })),
  ),
) {}

define('acct-header', AcctHeaderElement);

declare global {
  interface HTMLElementTagNameMap {
    'acct-header': AcctHeaderElement;
  }
}
