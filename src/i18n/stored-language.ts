import { afterEvaluation } from '../after-evaluation';
import { LANGUAGE_COOKIE } from '../contract/languages';

export { LANGUAGE_COOKIE };

function decoded(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * The stored language from `document.cookie` (a blocking read: see `storedLanguage`). Null where the
 * page may not read cookies (a sandboxed frame throws).
 */
export function readStoredLanguage(): string | null {
  let cookies: string;
  try {
    cookies = globalThis.document?.cookie ?? '';
  } catch {
    return null;
  }
  return decoded(/(?:^|;\s*)acct-lang=([^;]*)/.exec(cookies)?.[1]);
}

/** The part of the Cookie Store API used here (Chromium 87+, Firefox 140+, Safari 18.4+; secure pages). */
interface CookieStoreLike {
  get(name: string): Promise<{ value?: string } | null | undefined>;
}

export type StoredLanguage =
  { settled: true; value: string | null } | { settled: false; value: Promise<string | null> };

/**
 * The stored language. Where the Cookie Store API exists it is read without blocking (`settled: false`),
 * once the bundle has evaluated: a cookie read during the evaluation costs a re-parse of the whole
 * bundle (see after-evaluation.ts). Elsewhere (older browsers, plain-http pages) it is read from
 * `document.cookie` at once. The preferences store reads it once.
 */
export function storedLanguage(): StoredLanguage {
  const store = (globalThis as { cookieStore?: CookieStoreLike }).cookieStore;
  if (typeof store?.get !== 'function') return { settled: true, value: readStoredLanguage() };
  return {
    settled: false,
    value: afterEvaluation
      .then(() => store.get(LANGUAGE_COOKIE))
      .then(
        (cookie) => decoded(cookie?.value),
        () => readStoredLanguage(),
      ),
  };
}
