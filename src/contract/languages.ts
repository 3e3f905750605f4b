/** Interface languages (spec §1), en first: the default. */
export const LANGUAGES = ['en', 'fr', 'es', 'pt', 'de', 'ja', 'da'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** A supported language for a tag: itself, else its language part (`pt-BR` → `pt`), else null. */
export function matchLanguage(tag: string | null | undefined): Language | null {
  const lower = (tag ?? '').trim().toLowerCase().replace(/_/g, '-');
  if (!lower) return null;
  if ((LANGUAGES as readonly string[]).includes(lower)) return lower as Language;
  const part = lower.split('-')[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(part) ? (part as Language) : null;
}

export interface DetectionInput {
  /** The element's `lang` attribute. */
  attribute?: string | null;
  /** The stored preference. */
  stored?: string | null;
  /** `navigator.languages`, most preferred first. */
  browser?: readonly string[];
}

/**
 * Design §3 detection order: element `lang` attribute → stored preference → `navigator.languages` (each
 * candidate exactly, then by its language part) → `en`.
 */
export function detectLanguage({ attribute, stored, browser = [] }: DetectionInput): Language {
  for (const candidate of [attribute, stored, ...browser]) {
    const match = matchLanguage(candidate);
    if (match) return match;
  }
  return DEFAULT_LANGUAGE;
}

/** The language preference is a cookie, not local storage: design §3 keeps local storage to three keys. */
export const LANGUAGE_COOKIE = 'acct-lang';
/** The language cookie lives a year (set by the elements, and by the OpenID Provider for `ui_locales`). */
export const LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 3600;
