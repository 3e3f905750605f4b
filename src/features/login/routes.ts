/** The login screens (spec §2 route table, /login children). */
export type LoginScreen =
  'team' | 'signin' | 'forgotPassword' | 'resetPassword' | 'error' | 'invite' | 'emailCode';

export interface LoginRoute {
  screen: LoginScreen;
  /** The team named in the path (lower-case), for every screen but `team`. */
  team: string | null;
}

/**
 * `/login/team` → team; `/login/{team}` → sign-in;
 * `/login/{team}/forgotPassword|resetPassword|error|invite|emailCode` (the last: a mailed sign-in link);
 * anything else under /login → team (the route table's redirect).
 */
export function parseLoginPath(path: string): LoginRoute {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] !== 'login' || parts.length < 2 || parts[1] === 'team') return { screen: 'team', team: null };
  let team: string;
  try {
    team = decodeURIComponent(parts[1]!).toLowerCase();
  } catch {
    return { screen: 'team', team: null };
  }
  if (parts.length === 2) return { screen: 'signin', team };
  if (
    parts.length === 3 &&
    ['forgotPassword', 'resetPassword', 'error', 'invite', 'emailCode'].includes(parts[2]!)
  ) {
    return { screen: parts[2] as LoginScreen, team };
  }
  return { screen: 'team', team: null };
}

/** The portal's own sign-up screen (the Register button's address when the deployment opens sign-up). */
export const SIGN_UP_PATH = '/signup';

/** The path of a team's sign-in screen. */
export function signInPath(team: string): string {
  return `/login/${encodeURIComponent(team)}`;
}

/** What an app's sign-in request (through the OpenID Provider) asks of the sign-in screen. */
export interface SignInRequest {
  /** The e-mail to pre-fill (`login_hint`). */
  loginHint?: string | null;
  /** A fresh sign-in, even when signed in (`max_age`). */
  maxAge?: string | null;
}

/**
 * A login-flow path that keeps the flow's ReturnUrl, when it has one, for the step after it — and what
 * an app's request asks of the sign-in screen, when the next step leads there.
 */
export function withReturnUrl(
  path: string,
  returnUrl: string | null,
  { loginHint, maxAge }: SignInRequest = {},
): string {
  const query = new URLSearchParams();
  if (returnUrl) query.set('ReturnUrl', returnUrl);
  if (loginHint) query.set('login_hint', loginHint);
  if (maxAge) query.set('max_age', maxAge);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
