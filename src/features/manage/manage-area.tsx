import { useEffect } from 'react';
import { useStore } from 'zustand';
import { sessionStore } from '../../state/session';
import { useElement } from '../../ui/element-context';
import { Link, useRouter } from '../../ui/router';
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

function Content({ section }: { section: ManageSection }) {
  if (section === 'info') return <InfoSection />;
  return <Pending />;
}

function SignedOut({ standalone }: { standalone: boolean }) {
  const { t, issuer } = useElement();
  const router = useRouter();
  const { path, search } = router.location;
  const target = `/login/team?${new URLSearchParams({ ReturnUrl: `${path}${search}` })}`;
  // In the portal: to the team screen, coming back here afterwards (spec §2).
  useEffect(() => {
    if (!standalone) router.navigate(target, { replace: true });
  }, [standalone, router, target]);
  if (!standalone) return null;
  return (
    <section className="panel" part="card">
      <p>{t('manage.signedOut')}</p>
      <a className="button" part="button" href={`${issuer}/login/team`}>
        {t('manage.signIn')}
      </a>
    </section>
  );
}

/**
 * The manage area (spec §2): a sidebar (personal info, QR code login, developer tools) and the section,
 * for a signed-in user only.
 */
export default function ManageArea({ standalone }: { standalone: boolean }) {
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
        <Content section={section} />
      </div>
      <Snackbar />
    </div>
  );
}
