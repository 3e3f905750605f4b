import { useStore } from 'zustand';
import { initials, sessionStore } from '../../state/session';
import { useElement } from '../../ui/element-context';

/**
 * The suite header's bar: the logo linking to `/` and, when signed in, who is signed in and a sign-out
 * button. The menus, theme switch and app switcher arrive with the portal-shell work.
 */
export function HeaderBar({ homeHref, onSignedOut }: { homeHref: string; onSignedOut?: () => void }) {
  const { t, brand, emit } = useElement();
  const user = useStore(sessionStore, (state) => state.user);
  const loggedIn = useStore(sessionStore, (state) => state.loggedIn);
  const Icon = brand.Icon;

  async function signOut() {
    await sessionStore
      .getState()
      .signOut()
      .catch(() => undefined);
    emit('acct-signed-out', { reason: 'user' });
    onSignedOut?.();
  }

  return (
    <header className="header" part="header">
      <a className="header-logo" href={homeHref}>
        <Icon label={t('common.home', { brand: brand.name })} />
        <span aria-hidden="true">{brand.name}</span>
      </a>
      {loggedIn && user ? (
        <div className="header-user">
          <span className="avatar" aria-hidden="true">
            {initials(user.name)}
          </span>
          <span className="header-name">
            <span className="visually-hidden">{t('header.signedInAs')} </span>
            {user.name}
          </span>
          <button type="button" className="button secondary small" part="button" onClick={signOut}>
            {t('header.signOut')}
          </button>
        </div>
      ) : null}
    </header>
  );
}
