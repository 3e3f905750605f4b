import { HeaderBar } from './header-bar';

/** `<acct-header>` on any suite page: the header bar; its logo leads to the page's own `/`. */
export function HeaderElement() {
  return <HeaderBar homeHref="/" />;
}
