/** Interface languages (spec §1), en first: the default. */
export const LANGUAGES = [
  'en',
  'fr',
  'es',
  'pt',
  'de',
  'ja',
  'da',
  'it',
  'nl',
  'pl',
  'sv',
  'nb',
  'fi',
  'cs',
  'tr',
  'uk',
  'zh-Hans',
  'ko',
  'ar',
  'he',
] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** The languages written right to left (their elements mirror: `dir="rtl"` on the root). */
const RIGHT_TO_LEFT = ['ar', 'he'];

/** The writing direction of a language tag (`ar`, `he-IL` → rtl; anything else → ltr). */
export function directionOf(tag: string): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.includes(tag.toLowerCase().split(/[-_]/)[0] ?? '') ? 'rtl' : 'ltr';
}

/**
 * The language a tag's language part stands for, where that is not the part itself: Chinese means
 * Simplified Chinese unless the tag says Traditional (a `Hant` script, or Taiwan, Hong Kong, Macao); any
 * Norwegian — `no`, Nynorsk `nn` — reads Bokmål.
 */
function languageOfPart(part: string, rest: string[]): string {
  if (part === 'zh') return rest.some((sub) => ['hant', 'tw', 'hk', 'mo'].includes(sub)) ? '' : 'zh-hans';
  if (part === 'no' || part === 'nn') return 'nb';
  return part;
}

/** {@link matchLanguage} among any list of tags (the supported ones, or tests' lists). */
export function matchTag<T extends string>(tag: string | null | undefined, among: readonly T[]): T | null {
  const lower = (tag ?? '').trim().toLowerCase().replace(/_/g, '-');
  if (!lower) return null;
  const find = (wanted: string) => among.find((language) => language.toLowerCase() === wanted) ?? null;
  const [part = '', ...rest] = lower.split('-');
  return find(lower) ?? find(languageOfPart(part, rest));
}

/**
 * A supported language for a tag: itself (in any case), else its language part (`pt-BR` → `pt`,
 * `zh-CN` → `zh-Hans`, `nb-NO` → `nb`), else null.
 */
export function matchLanguage(tag: string | null | undefined): Language | null {
  return matchTag(tag, LANGUAGES);
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
