/** The language preference is a cookie, not local storage: design §3 keeps local storage to three keys. */
export const LANGUAGE_COOKIE = 'acct-lang';

export function readStoredLanguage(): string | null {
  const match = /(?:^|;\s*)acct-lang=([^;]*)/.exec(globalThis.document?.cookie ?? '');
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}
