/**
 * Hostile inputs shared by the attack suites (design §3–§4).
 */

/** The attacker's host: no request may ever reach it, no redirect may ever point at it. */
export const EVIL_HOST = 'evil.test';

export interface ReturnUrlCase {
  /** The ReturnUrl value as the page or the form receives it (already decoded once by the query parser). */
  value: string;
  /** Why it is here: the trick it relies on. */
  trick: string;
}

/**
 * ReturnUrl / returnUrl values that try to leave the origin. Some are harmless once resolved (for
 * example `/%2f/evil.test` is a path on our own origin) and may be accepted; the rule under test is only
 * that none of them may take the browser, or a redirect, off the origin.
 */
export const RETURN_URL_CASES: readonly ReturnUrlCase[] = [
  { value: '//evil.test', trick: 'protocol-relative' },
  { value: '//evil.test/manage', trick: 'protocol-relative with a path' },
  { value: '///evil.test', trick: 'three slashes (browsers collapse them to a host)' },
  { value: '////evil.test', trick: 'four slashes' },
  { value: '/\\evil.test', trick: 'backslash read as a slash by browsers' },
  { value: '/\\/evil.test', trick: 'backslash then slash' },
  { value: '\\\\evil.test', trick: 'two backslashes' },
  { value: '\\/evil.test', trick: 'backslash first' },
  { value: '/\\@evil.test', trick: 'backslash and userinfo' },
  { value: '/\t/evil.test', trick: 'tab between the slashes (URL parsers strip it)' },
  { value: '/\n/evil.test', trick: 'line feed between the slashes' },
  { value: '/\r/evil.test', trick: 'carriage return between the slashes' },
  { value: '/%09/evil.test', trick: 'percent-encoded tab before a second slash' },
  { value: '/%0a/evil.test', trick: 'percent-encoded line feed before a second slash' },
  { value: '/%0d/evil.test', trick: 'percent-encoded carriage return before a second slash' },
  { value: '/%2f/evil.test', trick: 'percent-encoded slash (stays a path on our origin)' },
  { value: '/%2F%2Fevil.test', trick: 'percent-encoded double slash' },
  { value: '%2f%2fevil.test', trick: 'encoded double slash, no leading slash' },
  { value: '%252f%252fevil.test', trick: 'doubly encoded double slash' },
  { value: '/%252f%252fevil.test', trick: 'doubly encoded, after a slash' },
  { value: '/%5Cevil.test', trick: 'percent-encoded backslash' },
  { value: '/%5C%5Cevil.test', trick: 'two percent-encoded backslashes' },
  { value: 'https://evil.test', trick: 'absolute URL' },
  { value: 'https://evil.test/manage', trick: 'absolute URL with a path' },
  { value: 'https:evil.test', trick: 'scheme without slashes' },
  { value: 'https:/evil.test', trick: 'scheme and one slash' },
  { value: 'HTTPS://EVIL.TEST', trick: 'upper-case absolute URL' },
  { value: 'javascript:alert(1)', trick: 'javascript: URL' },
  { value: 'JaVaScRiPt:alert(1)', trick: 'mixed-case javascript: URL' },
  { value: ' javascript:alert(1)', trick: 'space before javascript:' },
  { value: 'data:text/html,<script>alert(1)</script>', trick: 'data: URL' },
  { value: '/\uff0f/evil.test', trick: 'fullwidth solidus U+FF0F' },
  { value: '\uff0f\uff0fevil.test', trick: 'two fullwidth solidi' },
  { value: '/\u2215/evil.test', trick: 'division slash U+2215' },
  { value: '/\u2044/evil.test', trick: 'fraction slash U+2044' },
  { value: '/\u29f8/evil.test', trick: 'big solidus U+29F8' },
  { value: '/\uff3cevil.test', trick: 'fullwidth reverse solidus U+FF3C' },
  { value: ' //evil.test', trick: 'leading space' },
  { value: '\t//evil.test', trick: 'leading tab' },
  { value: '\u00a0//evil.test', trick: 'leading no-break space' },
  { value: '\u3000//evil.test', trick: 'leading ideographic space' },
  { value: '/ /evil.test', trick: 'space between the slashes' },
  { value: '/./\\evil.test', trick: 'dot segment then backslash' },
  { value: '/../evil.test', trick: 'parent segment (a path on our origin)' },
  { value: '/@evil.test', trick: 'userinfo-like path (a path on our origin)' },
  { value: '//evil.test@localhost', trick: 'userinfo pointing elsewhere' },
  { value: '/\u202e/evil.test', trick: 'right-to-left override' },
  { value: '/\u200b/evil.test', trick: 'zero-width space' },
  { value: '/\u0000/evil.test', trick: 'NUL' },
  { value: '//evil%2etest', trick: 'encoded dot in the host' },
  { value: '//evil\u3002test', trick: 'ideographic full stop as a dot' },
];

/**
 * Dot segments that the URL parser removes, leaving a path that starts with `//`: re-serialised as
 * path + search + hash, `/.//evil.test` becomes `//evil.test`, which a browser (and any Location header
 * reader) takes as the host evil.test. Kept apart from the table above: the rule
 * (src/contract/return-url.ts) once let them through, so they have tests of their own.
 */
export const DOT_SEGMENT_CASES: readonly ReturnUrlCase[] = [
  { value: '/.//evil.test', trick: 'dot segment then double slash' },
  { value: '/..//evil.test', trick: 'parent segment at the root then double slash' },
  { value: '/manage/..//evil.test', trick: 'parent segment collapsing to a double slash' },
  { value: '/manage/.././/evil.test', trick: 'parent and dot segments' },
  { value: '/%2e//evil.test', trick: 'percent-encoded dot segment' },
  { value: '/.%2E//evil.test', trick: 'half-encoded parent segment' },
  { value: '/%2e%2e//evil.test', trick: 'percent-encoded parent segment' },
];

/** Whether a URL (absolute) is on the attacker's host. */
export function isEvil(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === EVIL_HOST || host.endsWith(`.${EVIL_HOST}`) || host.includes('evil');
  } catch {
    return false;
  }
}

/**
 * A body or message that gives away internals: a stack frame, a source path, a module path.
 */
export function leaksInternals(text: string): boolean {
  return (
    /\n\s+at\s/.test(text) ||
    /\bat\s+\S+\s+\(/.test(text) ||
    /\/(?:work|home|tmp|usr)\//.test(text) ||
    /node_modules|demo\/server|\.ts:\d+|\.js:\d+/.test(text)
  );
}
