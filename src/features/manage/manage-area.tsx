import { Suspense, useEffect, type ComponentType } from 'react';
import { useStore } from 'zustand';
import { sessionStore } from '../../state/session';
import { useElement } from '../../ui/element-context';
import { Link, useRouter } from '../../ui/router';
import { SignInPrompt } from '../../ui/sign-in-prompt';
import { Snackbar } from '../../ui/snackbar';
import { Spinner } from '../../ui/spinner';
import { InfoSection } from './info-section';
import { developerToolsSupported, manageSection, type ManageSection } from './routes';

function Waiting() {
  const { t } = useElement();
  return (
    <div className="loading manage-waiting" role="status">
      <Spinner />
      <span>{t('common.loading')}</span>
    </div>
  );
}

/** Sections whose screens come with later work show a short note instead of a blank page. */
function Pending() {
  const { t } = useElement();
  return (
    <section className="panel" part="card">
      <p>{t('manage.pending')}</p>
    </section>
  );
}

/** Screens of other features shown in the manage area, given by whoever composes it (portal, element). */
export type ManageSections = Partial<Record<Exclude<ManageSection, 'info'>, ComponentType>>;

function Content({ section, sections }: { section: ManageSection; sections: ManageSections }) {
  if (section === 'info') return <InfoSection />;
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
 * The manage area (spec §2): a sidebar (personal info, QR code login, developer tools) and the section,
 * for a signed-in user only.
 */
export default function ManageArea({
  standalone,
  sections = {},
}: {
  standalone: boolean;
  sections?: ManageSections;
}) {
  const { t } = useElement();
  const { location } = useRouter();
  const status = useStore(sessionStore, (state) => state.status);
  const section = manageSection(location.path);

  if (status === 'unknown') return <Waiting />;
  if (status === 'loggedOut') return <SignedOut standalone={standalone} />;

  const items: Array<[string, string, boolean]> = [
    ['/manage', t('manage.nav.info'), section === 'info'],
    ['/manage/qr', t('manage.nav.qr'), section === 'qr'],
  ];
  if (developerToolsSupported())
    items.push(['/manage/dev', t('manage.nav.dev'), section === 'dev' || section === 'dev/success']);

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
        <h1 className="title">{t('manage.title')}</h1>
        <Suspense fallback={<Waiting />}>
          <Content section={section} sections={sections} />
        </Suspense>
      </div>
      <Snackbar />
    </div>
  );
}
