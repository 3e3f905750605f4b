import { parseLoginPath } from '../features/login/routes';
import { MANAGE_PATHS } from '../features/manage/routes';

/** The portal's manage screens (spec §2 route table): `''` is `/manage` itself. */
export type ManageSection = '' | (typeof MANAGE_PATHS)[number];

export type PortalView =
  | { kind: 'login' }
  | { kind: 'search' }
  /** A link mailed for an e-mail change (`/manage/email?change=…`): answered without a session. */
  | { kind: 'emailLink' }
  /** A third-party app's consent (`/consent/:uid`), asked by the OpenID Provider. */
  | { kind: 'consent' }
  /** A setup link a team owner mailed to their IT contact (`/setup/:token`): answered without a session. */
  | { kind: 'setup' }
  /** Starting a team (`/signup`, and its mailed link `/signup?id=…&token=…`). */
  | { kind: 'signup' }
  | { kind: 'manage'; section: ManageSection }
  | { kind: 'redirect'; to: string };

const MANAGE_SECTIONS: readonly ManageSection[] = ['', ...MANAGE_PATHS];

/**
 * The route table: `/login/{team, {teamName}, {teamName}/forgotPassword|resetPassword|error|invite|emailCode}` (anything
 * else under /login redirects to `/login/team`, keeping the query such as ReturnUrl), `/search`,
 * `/manage/{'', …the manage area's sections}`, `/consent/:uid`, `/setup/:token`, `/signup`, `home/token` → `manage/dev/success` (the
 * fragment kept), and anything else → `manage`. A mailed e-mail-change link (`/manage/email?change=…`)
 * opens outside the manage area: it needs no session.
 */
export function matchRoute(path: string, hash = '', search = ''): PortalView {
  const trimmed = path.replace(/\/+$/, '') || '/';
  if (isLoginPath(trimmed)) {
    const login = parseLoginPath(trimmed);
    // The login screens show the team screen for any path they do not know; the route table redirects.
    if (login.screen === 'team' && trimmed !== '/login/team') {
      return { kind: 'redirect', to: `/login/team${search}` };
    }
    return { kind: 'login' };
  }
  if (trimmed === '/search') return { kind: 'search' };
  if (/^\/consent\/[^/]+$/.test(trimmed)) return { kind: 'consent' };
  if (/^\/setup\/[^/]+$/.test(trimmed)) return { kind: 'setup' };
  if (trimmed === '/signup') return { kind: 'signup' };
  if (trimmed === '/home/token') return { kind: 'redirect', to: `/manage/dev/success${hash}` };
  if (trimmed === '/manage/email' && new URLSearchParams(search).has('change')) return { kind: 'emailLink' };
  if (trimmed === '/manage' || trimmed.startsWith('/manage/')) {
    const section = trimmed.slice('/manage'.length).replace(/^\//, '');
    if ((MANAGE_SECTIONS as readonly string[]).includes(section))
      return { kind: 'manage', section: section as ManageSection };
  }
  return { kind: 'redirect', to: '/manage' };
}

/** Whether a portal path is one of the sign-in screens (`/login` and everything under it). */
export function isLoginPath(path: string): boolean {
  return path === '/login' || path.startsWith('/login/');
}

/**
 * Spec §2: after each navigation, the portal checks whether the user is signed in — unless the deepest
 * active route has the query parameter ReturnUrl (a sign-in on its way back somewhere). The query belongs
 * to the whole address, so the deepest route's parameters are the location's.
 */
export function needsLoginCheck(location: { search: string }): boolean {
  return !new URLSearchParams(location.search).has('ReturnUrl');
}
