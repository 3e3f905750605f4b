import i18next from 'i18next';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { directionOf } from '../../src/contract/languages';
import { isolateValues } from '../../src/i18n/bidi';

export type Texts = Record<string, unknown>;
/** The text a screen shows for a key, as the elements render it (`{{name}}` placeholders, plurals). */
export type T = (key: string, values?: Record<string, string | number>) => string;

const LOCALES = resolve(import.meta.dirname, '..', '..', 'src', 'i18n', 'locales');

/** The text parts some screens load (src/i18n/parts.tsx), beside the chunk every page loads. */
export const TEXT_PARTS = ['manage', 'join', 'admin', 'invite', 'account', 'security', 'strength'];

/** `from`'s texts into `into`, key by key, as i18next adds a part to the store (deeply). */
function merge(into: Texts, from: Texts): Texts {
  for (const [key, value] of Object.entries(from)) {
    const there = into[key];
    into[key] =
      value && typeof value === 'object' && there && typeof there === 'object'
        ? merge(there as Texts, value as Texts)
        : value;
  }
  return into;
}

/** A language's texts: the chunk every page loads and the text parts some screens load, together. */
export function readLocale(language: string): Texts {
  const read = (path: string) => JSON.parse(readFileSync(join(LOCALES, path), 'utf8')) as Texts;
  return TEXT_PARTS.reduce(
    (texts, part) => merge(texts, read(join(part, `${language}.json`))),
    read(`${language}.json`),
  );
}

/**
 * Every key of the texts as i18next shows a missing one — the key itself — with plural keys also by
 * their base (`team.users` for `team.users_one`).
 */
export function keysOf(texts: Texts, prefix = ''): Set<string> {
  const keys = new Set<string>();
  for (const [key, value] of Object.entries(texts)) {
    if (value && typeof value === 'object')
      for (const inner of keysOf(value as Texts, `${prefix}${key}.`)) keys.add(inner);
    else {
      keys.add(`${prefix}${key}`);
      keys.add(`${prefix}${key.replace(/_(zero|one|two|few|many|other)$/, '')}`);
    }
  }
  return keys;
}

/**
 * English's texts in another language's shape: each of its plural forms (Arabic's zero … many) holding
 * English's text of that count (`_one`, else `_other`). A pseudo-locale made of them can stand in for
 * that language's chunks, plural rules and all.
 */
export function englishAs(language: string): Texts {
  const english = readLocale('en');
  const shaped = (target: Texts, source: Texts): Texts =>
    Object.fromEntries(
      Object.entries(target).map(([key, value]) => {
        if (value && typeof value === 'object') return [key, shaped(value as Texts, source[key] as Texts)];
        const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
        const text = source[key] ?? (base !== key ? (source[`${base}_other`] ?? source[base]) : undefined);
        return [key, text ?? value];
      }),
    );
  return shaped(readLocale(language), english);
}

/**
 * A translator over a locale object, with i18next as the elements use it (their options in
 * src/i18n/instance.ts): `{{name}}` and `{{n, number}}` placeholders, plurals by the language's rules,
 * values bidi-isolated.
 * A key the texts lack throws, so a test never looks for a text that no screen can show.
 */
export function translator(texts: Texts, language = 'en'): T {
  const i18n = i18next.createInstance();
  void i18n.init({
    initAsync: false,
    lng: language,
    resources: { [language]: { translation: texts } },
    fallbackLng: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
  });
  const direction = directionOf(language);
  return (key, values) => {
    if (!i18n.exists(key, values)) throw new Error(`no text for ${key}`);
    // The values isolated as the elements' own instance isolates them (src/i18n/bidi.ts).
    return i18n.t(key, values && isolateValues(values, direction));
  };
}

/** A placeholder (`{{name}}`, `{{n, number}}`) or a tag around a part of a sentence (`<provider>`, `</provider>`). */
const MARKUP = /(\{\{\w+(?:,\s*\w+)?\}\}|<\/?\w+>)/;

const ACCENTS: Record<string, string> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ď',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ĺ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ó',
  p: 'ƥ',
  q: 'ʠ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ú',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ď',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Í',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ĺ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ó',
  P: 'Ƥ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Ú',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};
/** The pseudo-locale's marks around each text. */
export const PSEUDO_MARKS = ['⟦', '⟧'] as const;
/**
 * Another pair, for a second pseudo-locale on the same page: a text still in the first one's marks after
 * a change of language did not follow it.
 */
export const PSEUDO_MARKS_OTHER = ['⟪', '⟫'] as const;

/**
 * The pseudo-locale: every English text accented, 40% longer and wrapped in `marks` (⟦ ⟧), placeholders
 * and tags kept.
 * A text node on screen without ⟦ came from somewhere other than the locale files.
 */
export function pseudoLocale(english: Texts, [open, close]: readonly [string, string] = PSEUDO_MARKS): Texts {
  const convert = (value: unknown): unknown => {
    if (typeof value !== 'string') {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, convert(v)]),
      );
    }
    const accented = value
      .split(MARKUP)
      // split() with a capturing group: odd parts are the placeholders and tags, kept as they are.
      .map((part, i) => (i % 2 ? part : part.replace(/[a-zA-Z]/g, (c) => ACCENTS[c] ?? c)))
      .join('');
    const padding = '·'.repeat(Math.ceil(value.length * 0.4));
    return `${open}${accented}${padding}${close}`;
  };
  return convert(english) as Texts;
}
