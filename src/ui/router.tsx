import {
  createContext,
  useCallback,
  useContext,
  useEffectEvent,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

/** Where a screen is: a path inside the portal (without the base path), its query and its hash. */
export interface RouteLocation {
  path: string;
  search: string;
  hash: string;
}

export interface NavigateOptions {
  replace?: boolean;
}

export interface Router {
  location: RouteLocation;
  /** Go to a portal path: absolute (`/login/team`) or relative to the current path (`forgotPassword`, `../`). */
  navigate(to: string, options?: NavigateOptions): void;
  /** The `href` for a portal path (with the base path, for links that still work when opened in a new tab). */
  href(to: string): string;
}

const RouterContext = createContext<Router | null>(null);

export function useRouter(): Router {
  const router = useContext(RouterContext);
  if (!router) throw new Error('useRouter() needs a router around it');
  return router;
}

/** The value of a query parameter of the current location. */
export function useSearchParam(name: string): string | null {
  return new URLSearchParams(useRouter().location.search).get(name);
}

/**
 * Resolve `to` against the current path the way route links do: relative paths are relative to the
 * current path as a folder (`forgotPassword` from `/login/acme` → `/login/acme/forgotPassword`;
 * `../` from `/login/acme/resetPassword` → `/login/acme/`).
 */
export function resolvePath(to: string, from: string): RouteLocation {
  const base = `http://portal.invalid${from.endsWith('/') ? from : `${from}/`}`;
  const url = new URL(to, base);
  return { path: url.pathname, search: url.search, hash: url.hash };
}

function parse(value: string): RouteLocation {
  const url = new URL(value, 'http://portal.invalid/');
  return { path: url.pathname, search: url.search, hash: url.hash };
}

const same = (a: RouteLocation, b: RouteLocation) =>
  a.path === b.path && a.search === b.search && a.hash === b.hash;
const serialise = (l: RouteLocation) => `${l.path}${l.search}${l.hash}`;

/**
 * A router that keeps its location in memory: embedded elements never change the host page's URL.
 * `initial` is read once; give the router a `key` to start over from another location.
 */
export function MemoryRouter({ initial, children }: { initial: string; children: ReactNode }) {
  const [location, setLocation] = useState(() => parse(initial));
  const navigate = useCallback((to: string) => {
    setLocation((current) => {
      const next = resolvePath(to, current.path);
      return same(current, next) ? current : next;
    });
  }, []);
  const value = useMemo<Router>(
    () => ({ location, navigate, href: (to) => serialise(resolvePath(to, location.path)) }),
    [location, navigate],
  );
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/**
 * The portal path of a page path under `basePath` (normalised: '' or `/a/b`, no trailing slash), or null
 * when the page path is outside it. The base matches whole segments only: `/accountsX` is not under
 * `/accounts`.
 */
export function pathUnderBase(pathname: string, basePath: string): string | null {
  if (!basePath) return pathname || '/';
  if (pathname === basePath) return '/';
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : null;
}

/** The page's address as a portal location: what `BrowserRouter` renders (outside the base: `/`). */
export function browserLocation(basePath: string): RouteLocation {
  const path = pathUnderBase(location.pathname, basePath) ?? '/';
  return { path, search: location.search, hash: location.hash };
}

/**
 * A router over the History API, under `basePath`: back and forward work, and `onNavigate` hears of
 * every change (the portal dispatches `acct-navigate` and runs the login check from it).
 */
export function BrowserRouter({
  basePath,
  onNavigate,
  children,
}: {
  basePath: string;
  onNavigate?: (location: RouteLocation) => void;
  children: ReactNode;
}) {
  const [current, setCurrent] = useState(() => browserLocation(basePath));
  useEffect(() => {
    const onPop = () => setCurrent(browserLocation(basePath));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [basePath]);
  // Once per change of place: a new `onNavigate` (its element's language or brand changed) is no
  // navigation, and must not tell the host of one or check the session again.
  const navigated = useEffectEvent((location: RouteLocation) => onNavigate?.(location));
  useEffect(() => {
    navigated(current);
  }, [current]);

  const navigate = useCallback(
    (to: string, options: NavigateOptions = {}) => {
      const next = resolvePath(to, browserLocation(basePath).path);
      const url = `${basePath}${serialise(next)}`;
      if (options.replace) history.replaceState(null, '', url);
      else history.pushState(null, '', url);
      setCurrent(next);
    },
    [basePath],
  );
  const value = useMemo<Router>(
    () => ({
      location: current,
      navigate,
      href: (to) => `${basePath}${serialise(resolvePath(to, current.path))}`,
    }),
    [current, navigate, basePath],
  );
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/**
 * A link to a portal path: a real `<a href>` (new tab, copy link work) that navigates in place on a plain
 * click. `disabled` (while the screen's request runs) leaves a link without an address, marked disabled.
 */
export function Link({
  to,
  disabled = false,
  children,
  ...rest
}: { to: string; disabled?: boolean; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const router = useRouter();
  if (disabled) {
    return (
      <a className={rest.className} role="link" aria-disabled="true">
        {children}
      </a>
    );
  }
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    rest.onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    router.navigate(to);
  };
  return (
    <a {...rest} href={router.href(to)} onClick={onClick}>
      {children}
    </a>
  );
}
