import { Suspense, useEffect, useId, useState, type ComponentType } from 'react';
import { useStore } from 'zustand';
import { useTranslation } from 'react-i18next';
import { useTextPart } from '../../i18n/parts';
import { sessionStore } from '../../state/session';
import { Link, useRouter } from '../../ui/router';
import { Alert } from '../../ui/alert';
import { ScreenTitleContext } from '../../ui/screen-title';
import { SignInPrompt } from '../../ui/sign-in-prompt';
import { Snackbar } from '../../ui/snackbar';
import { ScreenLoading } from '../../ui/spinner';
import { InfoSection } from './info-section';
import {
  ADMIN_SECTIONS,
  developerToolsSupported,
  MANAGE_GROUPS,
  MANAGE_SCREENS,
  manageSection,
  type ManageSection,
} from './routes';
import { isTeamAdmin, usePermissions, type PermissionsState } from './use-permissions';
import '../../styles/screens-sheet';

/** Sections whose screens come with later work show a short note instead of a blank page. */
function Pending() {
  const { t } = useTranslation();
  return (
    <section className="panel" part="card">
      <p>{t('manage.pending')}</p>
    </section>
  );
}

/**
 * Each screen's heading: after a navigation in the portal focus goes to it, so it names the screen
 * rather than the area. (The newer screens' headings are their navigation words: the screens' own
 * texts load with them, after the heading shows.)
 */
function headingOf(section: ManageSection): string {
  if (section === 'dev/success') return 'manage.heading.devSuccess';
  return MANAGE_SCREENS.find((screen) => screen.section === section)?.heading ?? 'manage.heading.info';
}

/** Screens of other features shown in the manage area, given by whoever composes it (portal, element). */
export type ManageSections = Partial<Record<Exclude<ManageSection, 'info'>, ComponentType>>;

function Failed() {
  const { t } = useTranslation();
  return <Alert tone="error">{t('common.failed')}</Alert>;
}

/** A member who is not a team admin opened an admin screen: say why there is nothing, ask no admin call. */
function NeedAdmin() {
  const { t } = useTranslation();
  return (
    <section className="panel" part="card">
      <p>{t('manage.needAdmin')}</p>
      <Link to="/manage">{t('manage.nav.info')}</Link>
    </section>
  );
}

function Content({
  section,
  sections,
  permissions,
}: {
  section: ManageSection;
  sections: ManageSections;
  permissions: PermissionsState;
}) {
  if (section === 'info') return <InfoSection />;
  // The team screens are for team admins only; the server refuses the others anyway (403), so this is
  // a clear screen instead of a failing one.
  if (ADMIN_SECTIONS.includes(section)) {
    if (permissions === null) return <ScreenLoading />;
    if (permissions === 'failed') return <Failed />;
    if (!isTeamAdmin(permissions)) return <NeedAdmin />;
  }
  const Screen = sections[section];
  return Screen ? <Screen /> : <Pending />;
}

/**
 * The manage area's navigation: its screens under three headings (your account, your team for team
 * admins, developer tools), the current one marked (`aria-current`). On a narrow screen the list folds
 * behind a disclosure button that names the current page, so the screen's content starts near the top;
 * it folds again after each navigation.
 */
function ManageNav({ section, admin }: { section: ManageSection; admin: boolean }) {
  const { t } = useTranslation();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [shownFor, setShownFor] = useState(section);
  if (shownFor !== section) {
    setShownFor(section);
    setOpen(false);
  }
  const current = section === 'dev/success' ? 'dev' : section;
  const screens = MANAGE_SCREENS.filter(
    (screen) => (admin || !screen.admin) && (screen.section !== 'dev' || developerToolsSupported()),
  );
  const currentScreen = screens.find((screen) => screen.section === current);
  return (
    <nav className={open ? 'sidebar open' : 'sidebar'} aria-label={t('manage.nav.label')}>
      <button
        type="button"
        className="sidebar-toggle"
        part="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        {t('manage.nav.menu', { page: t(currentScreen?.nav ?? 'manage.nav.info') })}
      </button>
      <div className="sidebar-groups" id={listId}>
        {MANAGE_GROUPS.map((group) => {
          const inGroup = screens.filter((screen) => screen.group === group);
          if (inGroup.length === 0) return null;
          const headingId = `${listId}-${group}`;
          return (
            <div key={group} className="sidebar-group">
              <p className="sidebar-heading" id={headingId}>
                {t(`manage.nav.groups.${group}`)}
              </p>
              <ul aria-labelledby={headingId}>
                {inGroup.map((screen) => (
                  <li key={screen.section}>
                    <Link to={screen.path} aria-current={screen.section === current ? 'page' : undefined}>
                      {t(screen.nav)}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </div>
    </nav>
  );
}

function SignedOut({ standalone }: { standalone: boolean }) {
  const router = useRouter();
  const { path, search } = router.location;
  const target = `/login/team?${new URLSearchParams({ ReturnUrl: `${path}${search}` })}`;
  // In the portal: to the team screen, coming back here afterwards (spec §2).
  useEffect(() => {
    if (!standalone) router.navigate(target, { replace: true });
  }, [standalone, router, target]);
  return standalone ? <SignInPrompt /> : null;
}

/**
 * The manage area (spec §2): a sidebar (personal info, QR code login, developer tools; team, users and
 * groups for team admins) and the section, for a signed-in user only.
 */
export default function ManageArea({
  standalone,
  sections = {},
}: {
  standalone: boolean;
  sections?: ManageSections;
}) {
  const { t } = useTranslation();
  const { location } = useRouter();
  const status = useStore(sessionStore, (state) => state.status);
  const section = manageSection(location.path);
  const titleId = useId();
  const permissions = usePermissions();
  // Asked for at once, while the session is still being checked.
  const texts = useTextPart('manage');

  if (status === 'loggedOut') return <SignedOut standalone={standalone} />;
  if (status === 'unknown' || texts === 'loading') return <ScreenLoading />;
  if (texts === 'failed') return <Failed />;

  return (
    <div className="manage">
      <ManageNav section={section} admin={isTeamAdmin(permissions)} />
      <div className="manage-content stack">
        {/* Outside the Suspense boundary: it is there for the portal's focus as soon as the address changes. */}
        <h1 className="title" id={titleId}>
          {t(headingOf(section))}
        </h1>
        <ScreenTitleContext.Provider value={titleId}>
          <Suspense fallback={<ScreenLoading />}>
            <Content section={section} sections={sections} permissions={permissions} />
          </Suspense>
        </ScreenTitleContext.Provider>
      </div>
      <Snackbar />
    </div>
  );
}
