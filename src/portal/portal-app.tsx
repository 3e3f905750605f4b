import { lazy, useCallback, useEffect } from 'react';
import { HeaderBar } from '../features/header/header-bar';
import { LoginFlow } from '../features/login/login-flow';
import { useElement } from '../ui/element-context';
import { ElementFrame } from '../ui/element-frame';
import { BrowserRouter, useRouter, type RouteLocation } from '../ui/router';
import { MANAGE_SECTIONS } from './manage-sections';
import { matchRoute } from './routes';

/** A lazily loaded chunk: signing in never downloads the manage area. */
const ManageArea = lazy(() => import('../features/manage/manage-area'));

function Redirect({ to }: { to: string }) {
  const router = useRouter();
  useEffect(() => {
    router.navigate(to, { replace: true });
  }, [router, to]);
  return null;
}

function Screen() {
  const router = useRouter();
  const view = matchRoute(router.location.path, router.location.hash);
  if (view.kind === 'redirect') return <Redirect to={view.to} />;
  if (view.kind === 'login') return <LoginFlow afterSignIn="portal" />;
  if (view.kind === 'manage') return <ManageArea standalone={false} sections={MANAGE_SECTIONS} />;
  // The search page arrives with the portal-shell work.
  return <ElementFrame />;
}

function Shell() {
  const router = useRouter();
  const { brand } = useElement();
  useEffect(() => {
    document.title = brand.name;
  }, [brand]);
  return (
    <div className="portal">
      <HeaderBar homeHref={router.href('/')} onSignedOut={() => router.navigate('/login/team')} />
      <main className="portal-main">
        <Screen />
      </main>
    </div>
  );
}

/** `<acct-portal>`: header, the routed screen, and (with the shell work) the footer, over the History API. */
export function PortalApp() {
  const { basePath, emit } = useElement();
  const onNavigate = useCallback(
    (location: RouteLocation) => emit('acct-navigate', { path: `${location.path}${location.search}` }),
    [emit],
  );
  return (
    <BrowserRouter basePath={basePath} onNavigate={onNavigate}>
      <Shell />
    </BrowserRouter>
  );
}
