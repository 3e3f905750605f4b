import { Suspense, useCallback, useEffect, useRef, type MouseEvent } from 'react';
import { directionOf } from '../contract/languages';
import { Footer } from '../features/header/footer';
import { HeaderBar } from '../features/header/header-bar';
import { LoginFlow } from '../features/login/login-flow';
import { ForgotScreen, InviteScreen, ResetScreen, TeamScreen } from '../features/login/lazy-screens';
import { teamFirstData } from '../features/login/prefetch';
import { parseLoginPath } from '../features/login/routes';
import { sessionStore } from '../state/session';
import { readRuntimeSettings } from '../state/settings';
import { useElement } from '../ui/element-context';
import { ElementFrame } from '../ui/element-frame';
import { normalizeBasePath } from '../ui/element-root';
import { lazyScreen } from '../ui/lazy-screen';
import { BrowserRouter, browserLocation, pathUnderBase, useRouter, type RouteLocation } from '../ui/router';
import { MANAGE_SECTIONS } from './manage-sections';
import { isLoginPath, matchRoute, needsLoginCheck } from './routes';

/** Lazily loaded chunks: signing in never downloads the manage area or the search page. */
const ManageArea = lazyScreen(() => import('../features/manage/manage-area'));
const SearchPage = lazyScreen(() => import('./search-screen'));
const EmailLinkPage = lazyScreen(() => import('../features/account/email-link'));
const ConsentPage = lazyScreen(() => import('../features/account/consent-page'));
const SetupPage = lazyScreen(() => import('../features/team/setup-page'));
const SignUpPage = lazyScreen(() => import('../features/login/signup-screen'));

/**
 * What the portal's first screen needs, for `elementClass` to wait for: the route's chunks (the manage
 * area and its section, or the search page), or the team a sign-in route names.
 */
export function portalFirstData(element: HTMLElement): Promise<unknown> | undefined {
  const basePath = normalizeBasePath(
    element.getAttribute('base-path') || readRuntimeSettings(element.ownerDocument).basePath,
  );
  const { path, hash, search } = browserLocation(basePath);
  const view = matchRoute(path, hash, search);
  if (view.kind === 'search') return SearchPage.preload();
  if (view.kind === 'emailLink') return EmailLinkPage.preload();
  if (view.kind === 'consent') return ConsentPage.preload();
  if (view.kind === 'setup') return SetupPage.preload();
  if (view.kind === 'signup') return SignUpPage.preload();
  if (view.kind === 'manage') {
    const section = view.section ? MANAGE_SECTIONS[view.section] : undefined;
    return Promise.all([ManageArea.preload(), section?.preload()]);
  }
  const login = view.kind === 'login' ? parseLoginPath(path) : null;
  // The invitation screen asks the server about its link itself: only its chunk is waited for.
  if (login?.screen === 'invite') return InviteScreen.preload();
  if (login?.screen === 'resetPassword' && login.team)
    return Promise.all([ResetScreen.preload(), teamFirstData(element, login.team)]);
  if (login?.screen === 'forgotPassword' && login.team)
    return Promise.all([ForgotScreen.preload(), teamFirstData(element, login.team)]);
  if (login?.team) return teamFirstData(element, login.team);
  return login ? TeamScreen.preload() : undefined;
}

function Redirect({ to }: { to: string }) {
  const router = useRouter();
  useEffect(() => {
    router.navigate(to, { replace: true });
  }, [router, to]);
  return null;
}

function Screen() {
  const router = useRouter();
  const view = matchRoute(router.location.path, router.location.hash, router.location.search);
  if (view.kind === 'redirect') return <Redirect to={view.to} />;
  if (view.kind === 'login') return <LoginFlow afterSignIn="portal" />;
  if (view.kind === 'search') return <SearchPage />;
  if (view.kind === 'emailLink') return <EmailLinkPage />;
  if (view.kind === 'consent') return <ConsentPage />;
  if (view.kind === 'setup') return <SetupPage />;
  if (view.kind === 'signup') return <SignUpPage />;
  return <ManageArea standalone={false} sections={MANAGE_SECTIONS} />;
}

/**
 * A plain click on a link to a portal address stays in the portal (History API); modified clicks,
 * other targets, downloads and links elsewhere are left to the browser.
 */
function interceptLinks(event: MouseEvent, basePath: string, navigate: (to: string) => void) {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return;
  const anchor = event.nativeEvent
    .composedPath()
    .find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement);
  if (
    !anchor ||
    !anchor.href ||
    (anchor.target && anchor.target !== '_self') ||
    anchor.hasAttribute('download')
  )
    return;
  const url = new URL(anchor.href);
  const path = url.origin === location.origin ? pathUnderBase(url.pathname, basePath) : null;
  if (path === null) return;
  event.preventDefault();
  navigate(`${path}${url.search}${url.hash}`);
}

function Shell() {
  const router = useRouter();
  const { brand, theme, basePath, language } = useElement();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  // Spec §1/§4: the page title is the brand's name; the body carries the dark or the default class.
  useEffect(() => {
    document.title = brand.name;
  }, [brand]);
  // The portal owns its page: the page's language and direction are the portal's, so screen readers
  // read it in the right voice and the page's scroll bar and overflow follow (the other elements mark
  // only their own root).
  useEffect(() => {
    document.documentElement.lang = language;
    document.documentElement.dir = directionOf(language);
  }, [language]);
  useEffect(() => {
    document.body.classList.toggle('dark-theme', theme === 'dark');
    document.body.classList.toggle('default-theme', theme !== 'dark');
  }, [theme]);

  // After a navigation: back to the top, and focus on the new screen's heading — unless the screen has
  // already put it in a field (the sign-in screens focus their first field). A screen still loading (a
  // lazy chunk, its data) has no heading yet: focus goes to it when it appears, if focus has not gone
  // anywhere else meanwhile.
  const { path, search } = router.location;
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    const region = main.current;
    if (!region) return;
    const activeElement = () => (region.getRootNode() as ShadowRoot | Document).activeElement;
    const focusHeading = (): boolean => {
      const active = activeElement();
      if (active && region.contains(active) && active.matches('input, textarea, select')) return true;
      const heading = region.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      heading.tabIndex = -1;
      heading.focus();
      return true;
    };
    let observer: MutationObserver | null = null;
    const frame = requestAnimationFrame(() => {
      if (focusHeading()) return;
      observer = new MutationObserver(() => {
        const active = activeElement();
        const elsewhere = !!active && active.isConnected && !region.contains(active);
        if (elsewhere || focusHeading()) observer?.disconnect();
      });
      observer.observe(region, { childList: true, subtree: true });
    });
    return () => {
      cancelAnimationFrame(frame);
      observer?.disconnect();
    };
  }, [path, search]);

  return (
    <div className="portal" onClick={(event) => interceptLinks(event, basePath, router.navigate)}>
      <HeaderBar
        homeHref={router.href('/')}
        onSignedOut={() => router.navigate('/login/team')}
        // The IT contact of a setup link has no account here: nothing to sign in to.
        offerSignIn={!isLoginPath(path) && matchRoute(path).kind !== 'setup'}
      />
      <main className="portal-main" ref={main}>
        <Suspense fallback={<ElementFrame />}>
          <Screen />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}

/** `<acct-portal>`: header, the routed screen and the footer, over the History API (spec §2). */
export function PortalApp() {
  const { basePath, emit } = useElement();
  const onNavigate = useCallback(
    (location: RouteLocation) => {
      emit('acct-navigate', { path: `${location.path}${location.search}` });
      if (needsLoginCheck(location)) void sessionStore.getState().check();
    },
    [emit],
  );
  return (
    <BrowserRouter basePath={basePath} onNavigate={onNavigate}>
      <Shell />
    </BrowserRouter>
  );
}
