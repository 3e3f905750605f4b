/**
 * Starting a team (the portal's own sign-up, `/signup`), as the server and the screen both judge it: the
 * team's address, the names no team may take, and how long the mailed code and the unfinished sign-up
 * live. Offensive names are the server's to judge (its word list stays out of the page's bytes).
 */

/** A team's address as it stands in `/login/{team}`: lower-case letters, digits and inner hyphens. */
export const TEAM_ADDRESS_MIN = 3;
export const TEAM_ADDRESS_MAX = 40;
const TEAM_ADDRESS = new RegExp(
  `^[a-z0-9](?:[a-z0-9-]{${TEAM_ADDRESS_MIN - 2},${TEAM_ADDRESS_MAX - 2}})[a-z0-9]$`,
);

/**
 * Addresses no sign-up may take: the portal's own routes and the server's paths (a team called `api`
 * or `signup` would read as the portal's), and names that pass for the operator.
 */
export const RESERVED_TEAM_NAMES: ReadonlySet<string> = new Set([
  'account',
  'admin',
  'administrator',
  'api',
  'app',
  'apps',
  'auth',
  'billing',
  'connect',
  'consent',
  'demo',
  'dev',
  'dist',
  'error',
  'favicon',
  'help',
  'home',
  'login',
  'logout',
  'mail',
  'manage',
  'oauth',
  'oidc',
  'policy',
  'portal',
  'register',
  'root',
  'saml',
  'scim',
  'search',
  'security',
  'settings',
  'setup',
  'sign-in',
  'sign-up',
  'signin',
  'signup',
  'sso',
  'static',
  'status',
  'support',
  'system',
  'team',
  'token',
  'well-known',
  'www',
]);

/** Why an address cannot be a new team's (the server adds `offensive` and `taken`). */
export type TeamAddressProblem = 'invalid' | 'reserved' | 'offensive' | 'taken';

/** The screen's and the server's first check of an address; null when it may be asked for. */
export function teamAddressProblem(address: string): 'invalid' | 'reserved' | null {
  if (!TEAM_ADDRESS.test(address) || address.includes('--')) return 'invalid';
  if (RESERVED_TEAM_NAMES.has(address)) return 'reserved';
  return null;
}

/**
 * The address a team name suggests: accents dropped, anything but letters and digits a hyphen, cut to
 * the longest address. May be empty (a name in another script): the person then types one.
 */
export function suggestTeamAddress(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, TEAM_ADDRESS_MAX)
    .replace(/-+$/, '');
}

export const SIGN_UP_CODE_DIGITS = 6;
/** The mailed code and link work this long (a new mail replaces them). */
export const SIGN_UP_CODE_MINUTES = 10;
/** An unfinished sign-up is forgotten this long after it began. */
export const SIGN_UP_PENDING_HOURS = 24;
/** The wait before the screen offers another mail (the server's limits stand behind it). */
export const SIGN_UP_RESEND_SECONDS = 30;
/** How long after the last keystroke the screen asks whether an address is free. */
export const TEAM_ADDRESS_CHECK_MS = 300;
