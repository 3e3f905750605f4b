// Control characters (C0, DEL, C1), any whitespace, and backslashes: browsers strip or reinterpret them.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\\\s\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/u;

/**
 * The hardened ReturnUrl rule (spec §4, design §3): accepted only when longer than 5 characters, starting
 * with exactly one `/`, free of `\`, control and whitespace characters, and still on the page's origin
 * once resolved. Returns the re-serialised path + search + hash to navigate to, or null. The value is
 * used as given (decoded once, by the query string parser) and never decoded again.
 */
export function safeReturnUrl(value: string | null | undefined, origin: string): string | null {
  if (!value || value.length <= 5) return null;
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  if (FORBIDDEN.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  // Dot segments collapse as the URL is resolved: `/.//evil.test` and `/a/..//evil.test` have the page's
  // origin but the path `//evil.test`, which a browser reads as another host once it is navigated to.
  if (url.pathname.startsWith('//')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
