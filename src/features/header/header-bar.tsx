import { useStore } from 'zustand';
import { useTranslation } from 'react-i18next';
import { preferencesStore } from '../../state/preferences';
import { initials, sessionStore } from '../../state/session';
import { themeOf } from '../../brands';
import { useElement } from '../../ui/element-context';
import { MenuButton, type MenuItem } from '../../ui/menu';
import { LANGUAGES } from '../../contract/languages';
import { LANGUAGE_NAMES } from '../../i18n/language-names';
import {
  AccountIcon,
  DashboardIcon,
  GlobeIcon,
  GridIcon,
  MoonIcon,
  SearchIcon,
  ShieldIcon,
  SignOutIcon,
  SunIcon,
} from './icons';
import { signInHref } from './sign-in-href';
import { useDashboard } from './use-dashboard';

/**
 * The suite header (spec §2): the logo linking to `/`, 'go to dashboard' when the switcher call gives a
 * dashboard, the app switcher, and the user menu behind the avatar — initials, name and e-mail;
 * dashboard, manage account, the theme switch (brands with a dark theme only), the privacy link, sign
 * out. The two menus are mutually exclusive. Signed out, the theme switch, the privacy link and Sign in
 * sit in the bar itself, so a page whose user has signed out is not a dead end.
 */
export function HeaderBar({
  homeHref,
  onSignedOut,
  offerSignIn = true,
}: {
  homeHref: string;
  onSignedOut?: () => void;
  /** False where the page already is the sign-in screen (the portal's /login routes). */
  offerSignIn?: boolean;
}) {
  const { t } = useTranslation();
  const { brand, emit, issuer, language, theme } = useElement();
  const user = useStore(sessionStore, (state) => state.user);
  const loggedIn = useStore(sessionStore, (state) => state.loggedIn);
  // Not while the first check runs: a signed-in user would see Sign in flash by.
  const signedOut = useStore(sessionStore, (state) => state.status === 'loggedOut');
  const darkMode = useStore(preferencesStore, (state) => state.darkMode);
  const dashboard = useDashboard(language);
  const { Icon, Wordmark } = brand;

  async function signOut() {
    await sessionStore
      .getState()
      .signOut()
      .catch(() => undefined);
    emit('acct-signed-out', { reason: 'user' });
    onSignedOut?.();
  }

  function switchTheme() {
    preferencesStore.getState().setDarkMode(!darkMode, brand);
    emit('acct-theme-change', { theme: themeOf(brand, !darkMode) });
  }

  const Actions = loggedIn && user ? 'nav' : 'div';
  const ThemeIcon = theme === 'dark' ? MoonIcon : SunIcon;
  const manageHref = `${issuer}/manage`;
  const accountItems: MenuItem[] = [
    ...(dashboard
      ? [{ kind: 'link' as const, label: t('header.dashboard'), href: dashboard, icon: <DashboardIcon /> }]
      : []),
    { kind: 'link', label: t('header.manageAccount'), href: manageHref, icon: <AccountIcon /> },
    ...(brand.darkTheme
      ? [
          {
            kind: 'checkbox' as const,
            label: t('header.darkTheme'),
            checked: theme === 'dark',
            onSelect: switchTheme,
            icon: <ThemeIcon />,
          },
        ]
      : []),
    {
      kind: 'link',
      label: t('header.privacy'),
      href: brand.privacyUrl,
      external: true,
      icon: <ShieldIcon />,
    },
    { kind: 'button', label: t('header.signOut'), onSelect: () => void signOut(), icon: <SignOutIcon /> },
  ];
  const languageItems: MenuItem[] = LANGUAGES.map((code) => ({
    kind: 'radio',
    label: LANGUAGE_NAMES[code],
    lang: code,
    checked: code === language,
    onSelect: () => {
      preferencesStore.getState().setLanguage(code);
      emit('acct-language-change', { language: code });
    },
  }));
  const switcherItems: MenuItem[] = [
    ...(dashboard
      ? [
          {
            kind: 'link' as const,
            label: t('header.apps.dashboard'),
            href: dashboard,
            icon: <DashboardIcon />,
          },
        ]
      : []),
    { kind: 'link', label: t('header.apps.account'), href: manageHref, icon: <AccountIcon /> },
  ];

  return (
    <header className={signedOut ? 'header signed-out' : 'header'} part="header">
      <a className="header-logo" href={homeHref}>
        <Icon label={t('common.home', { brand: brand.name })} />
        <Wordmark size={18} />
      </a>
      {/* Signed out, the bar's few controls need no navigation landmark of their own (the banner holds
          them). The name differs from the manage sidebar's, so the two landmarks can be told apart. */}
      <Actions className="header-actions" aria-label={loggedIn && user ? t('header.label') : undefined}>
        <MenuButton
          menu="language"
          label={t('header.language', { language: LANGUAGE_NAMES[language] })}
          buttonClass="icon-button"
          buttonContent={<GlobeIcon />}
          items={languageItems}
        />
        {loggedIn && user ? (
          <>
            {/* The portal's search (manage screens, and members for team admins): a link, so the
                portal follows it in place and other pages open the issuer's. */}
            <a className="icon-button" href={`${issuer}/search`} aria-label={t('header.search')}>
              <SearchIcon />
            </a>
            {dashboard ? (
              <a className="header-link header-dashboard" href={dashboard}>
                {t('header.goToDashboard')}
              </a>
            ) : null}
            <MenuButton
              menu="switcher"
              label={t('header.apps.label')}
              buttonClass="icon-button"
              buttonContent={<GridIcon />}
              items={switcherItems}
            />
            <MenuButton
              menu="account"
              className="account-menu"
              label={t('header.accountMenu', { name: user.name })}
              buttonClass="avatar-button"
              buttonContent={
                <>
                  <span className="avatar" aria-hidden="true">
                    {initials(user.name)}
                  </span>
                  <span className="header-name" dir="auto" aria-hidden="true">
                    {user.name}
                  </span>
                </>
              }
              header={
                <div className="menu-profile">
                  <span className="avatar large" aria-hidden="true">
                    {initials(user.name)}
                  </span>
                  <div>
                    <p className="menu-name" dir="auto">
                      {user.name}
                    </p>
                    <p className="menu-email">{user.email}</p>
                  </div>
                </div>
              }
              items={accountItems}
            />
          </>
        ) : null}
        {signedOut ? (
          <>
            {brand.darkTheme ? (
              <button
                type="button"
                className="icon-button"
                aria-label={t('header.darkTheme')}
                aria-pressed={theme === 'dark'}
                onClick={switchTheme}
              >
                <ThemeIcon />
              </button>
            ) : null}
            <a
              className="header-link header-privacy"
              href={brand.privacyUrl}
              target="_blank"
              rel="noopener noreferrer"
            >
              <ShieldIcon />
              <span className="header-link-text">{t('header.privacy')}</span>
            </a>
            {offerSignIn ? (
              <a
                className="header-sign-in"
                href={signInHref(issuer, location)}
                // A host page that routes with the History API may have moved on since this rendered.
                onClick={(event) => {
                  event.currentTarget.href = signInHref(issuer, location);
                }}
              >
                {t('header.signIn')}
              </a>
            ) : null}
          </>
        ) : null}
      </Actions>
    </header>
  );
}
