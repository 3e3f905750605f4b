import { Suspense, useEffect, useId, type ComponentType } from 'react';
import { useStore } from 'zustand';
import { useTranslation } from 'react-i18next';
import { sessionStore } from '../../state/session';
import { Link, useRouter } from '../../ui/router';
import { Alert } from '../../ui/alert';
import { ScreenTitleContext } from '../../ui/screen-title';
import { SignInPrompt } from '../../ui/sign-in-prompt';
import { Snackbar } from '../../ui/snackbar';
import { ScreenLoading } from '../../ui/spinner';
import { InfoSection } from './info-section';
import { ADMIN_SECTIONS, developerToolsSupported, manageSection, type ManageSection } from './routes';
import { isTeamAdmin, usePermissions, type PermissionsState } from './use-permissions';

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
 * rather than the area.
 */
const HEADINGS: Record<ManageSection, string> = {
  info: 'manage.heading.info',
  // The sidebar's words: the screens' own texts load with them, after the heading shows.
  security: 'manage.nav.security',
  sessions: 'manage.nav.sessions',
  activity: 'manage.nav.activity',
  email: 'manage.nav.email',
  leave: 'manage.nav.leave',
  qr: 'manage.heading.qr',
  dev: 'manage.heading.dev',
  'dev/success': 'manage.heading.devSuccess',
  team: 'manage.heading.team',
  user: 'manage.heading.user',
  group: 'manage.heading.group',
};

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

  if (status === 'unknown') return <ScreenLoading />;
  if (status === 'loggedOut') return <SignedOut standalone={standalone} />;

  const items: Array<[string, string, boolean]> = [
    ['/manage', t('manage.nav.info'), section === 'info'],
    ['/manage/security', t('manage.nav.security'), section === 'security'],
    ['/manage/sessions', t('manage.nav.sessions'), section === 'sessions'],
    ['/manage/activity', t('manage.nav.activity'), section === 'activity'],
    ['/manage/email', t('manage.nav.email'), section === 'email'],
    ['/manage/leave', t('manage.nav.leave'), section === 'leave'],
    ['/manage/qr', t('manage.nav.qr'), section === 'qr'],
  ];
  if (developerToolsSupported())
    items.push(['/manage/dev', t('manage.nav.dev'), section === 'dev' || section === 'dev/success']);
  if (isTeamAdmin(permissions))
    for (const admin of ADMIN_SECTIONS)
      items.push([`/manage/${admin}`, t(`manage.nav.${admin}`), section === admin]);

  return (
    <div className="manage">
      <nav className="sidebar" aria-label={t('manage.nav.label')}>
        <ul>
          {items.map(([to, label, current]) => (
            <li key={to}>
              <Link to={to} aria-current={current ? 'page' : undefined}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="manage-content stack">
        {/* Outside the Suspense boundary: it is there for the portal's focus as soon as the address changes. */}
        <h1 className="title" id={titleId}>
          {t(HEADINGS[section])}
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
