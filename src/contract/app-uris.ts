/**
 * The addresses a team's app may register (redirect, post-logout and back-channel logout URIs), the
 * same rule for the server's check and the screen's: an absolute URL without a fragment, https, or
 * plain http to this machine only (localhost, 127.0.0.1, [::1]) for development. A native app may also
 * use a private-use scheme in reverse-domain form (`com.example.app:/callback`), as RFC 8252 §7.1 says.
 * Redirect URIs then match exactly (the provider's rule), so there is nothing else to normalise.
 */

/** Why an address is refused: a stable code the screen translates. */
export type AppUriProblem = 'invalidUri' | 'insecureUri' | 'fragmentUri' | 'loopbackLogoutUri';

/** The kinds of a team's application (db/schema.ts `TeamAppKind`). */
export const APP_KINDS = ['web', 'spa', 'native', 'device', 'machine'] as const;
export type AppKind = (typeof APP_KINDS)[number];

/** The kinds that sign users in through a browser redirect, and so need redirect URIs. */
export const REDIRECT_KINDS: ReadonlySet<AppKind> = new Set(['web', 'spa', 'native']);

/**
 * The kinds a user signs in to, whose sessions therefore end: they may take a back-channel logout URI
 * (a machine app has no user and no session).
 */
export const LOGOUT_KINDS: ReadonlySet<AppKind> = new Set(['web', 'spa', 'native', 'device']);

/** The kinds that receive a secret (confidential clients). */
export const SECRET_KINDS: ReadonlySet<AppKind> = new Set(['web', 'machine']);

/** At most this many addresses of each list, each at most this long. */
export const APP_URI_LIMITS = { count: 10, length: 2000 } as const;

/** The host names of this machine, as a URL's `hostname` spells them. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);
/** A private-use scheme: reverse-domain, so it names its owner (RFC 8252 §7.1). */
const PRIVATE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/** The problem with an address for an app of this kind, or null when it may be registered. */
export function appUriProblem(value: string, kind: AppKind): AppUriProblem | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'invalidUri';
  }
  if (value !== value.trim() || url.username || url.password) return 'invalidUri';
  if (value.includes('#')) return 'fragmentUri';
  // A native app's https address is a claimed one (an app link): never this machine (RFC 8252 §7.2).
  if (url.protocol === 'https:')
    return url.hostname && !(kind === 'native' && LOOPBACK_HOSTS.has(url.hostname)) ? null : 'invalidUri';
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? null : 'insecureUri';
  if (kind === 'native' && PRIVATE_SCHEME.test(url.protocol)) return null;
  return 'insecureUri';
}

/**
 * The problem with a back-channel logout URI, or null. The server posts logout tokens to it itself, so
 * a web address whatever the app's kind: https, or http to this machine (never a private-use scheme).
 * This machine only where the server may post to it (`loopback`: the demo's); elsewhere its guard would
 * refuse every post, so the address is refused when it is entered. The screen does not know the
 * server's mode and leaves that case to the server's answer.
 */
export function logoutUriProblem(value: string, loopback = true): AppUriProblem | null {
  const problem = appUriProblem(value, 'web');
  if (problem || loopback) return problem;
  return LOOPBACK_HOSTS.has(new URL(value).hostname) ? 'loopbackLogoutUri' : null;
}
