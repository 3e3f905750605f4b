/**
 * URL rules of the HTTP client (spec §7, design §3). A URL is *relative* only when the browser would
 * resolve it against the page itself: no scheme and no leading `//` — counting the forms browsers
 * normalise into `//` (backslashes, tabs and newlines, leading control characters).
 */

// The URL parser drops leading/trailing C0 controls and spaces, and tabs/newlines anywhere.
// eslint-disable-next-line no-control-regex
const STRIPPED_BY_PARSER = /^[\u0000-\u0020]+|[\t\n\r]/g;

export function isRelativeUrl(url: string): boolean {
  const cleaned = url.replace(STRIPPED_BY_PARSER, '');
  if (/^[a-z][a-z\d+.-]*:/i.test(cleaned)) return false;
  if (/^[\\/]{2}/.test(cleaned)) return false;
  return true;
}

/** The origin a URL resolves to from the given page address, or null when it cannot be parsed. */
export function originOf(url: string, base: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

/** An issuer as given in an attribute: absolute, without a trailing slash. Empty → the page's origin. */
export function normalizeIssuer(value: string | null | undefined, pageOrigin: string): string {
  const trimmed = (value ?? '').trim();
  if (!trimmed) return pageOrigin;
  try {
    const url = new URL(trimmed, pageOrigin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return pageOrigin;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return pageOrigin;
  }
}

/**
 * The address to call for a path on the issuer: relative when the issuer is the page's own origin (so
 * the anti-forgery header applies), absolute otherwise.
 */
export function issuerUrl(issuer: string, path: string, pageOrigin: string): string {
  const base = new URL(issuer);
  const prefix = base.pathname.replace(/\/+$/, '');
  const full = `${prefix}${path.startsWith('/') ? path : `/${path}`}`;
  return base.origin === pageOrigin ? full : `${base.origin}${full}`;
}
