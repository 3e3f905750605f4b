import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type Texts = Record<string, unknown>;
/** The text a screen shows for a key, as the elements render it (single-brace placeholders, plurals). */
export type T = (key: string, values?: Record<string, string | number>) => string;

const LOCALES = resolve(import.meta.dirname, '..', '..', 'src', 'i18n', 'locales');

export function readLocale(language: string): Texts {
  return JSON.parse(readFileSync(join(LOCALES, `${language}.json`), 'utf8')) as Texts;
}

function lookup(texts: Texts, key: string): string | undefined {
  let node: unknown = texts;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'string' ? node : undefined;
}

/** A placeholder as the elements' translator reads it: `{name}`, or `{name, number}` to format with Intl. */
export const PLACEHOLDER = /\{(\w+)(?:,\s*(\w+))?\}/g;

/** A translator over a locale object (English rules for plurals: 1 → _one, else _other). */
export function translator(texts: Texts): T {
  return (key, values = {}) => {
    const plural =
      typeof values.count === 'number'
        ? lookup(texts, `${key}_${values.count === 1 ? 'one' : 'other'}`)
        : undefined;
    const text = plural ?? lookup(texts, key);
    if (text === undefined) throw new Error(`no text for ${key}`);
    return text.replace(PLACEHOLDER, (whole, name: string, format?: string) => {
      if (!(name in values)) return whole;
      const value = values[name]!;
      return format === 'number' && typeof value === 'number'
        ? new Intl.NumberFormat('en').format(value)
        : String(value);
    });
  };
}

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
export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

/**
 * The pseudo-locale: every English text accented, 40% longer and wrapped in ⟦ ⟧, placeholders kept.
 * A text node on screen without ⟦ came from somewhere other than the locale files.
 */
export function pseudoLocale(english: Texts): Texts {
  const convert = (value: unknown): unknown => {
    if (typeof value !== 'string') {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, convert(v)]),
      );
    }
    const accented = value
      .split(/(\{\w+(?:,\s*\w+)?\})/)
      // split() with a capturing group: odd parts are the placeholders, kept as they are.
      .map((part, i) => (i % 2 ? part : part.replace(/[a-zA-Z]/g, (c) => ACCENTS[c] ?? c)))
      .join('');
    const padding = '·'.repeat(Math.ceil(value.length * 0.4));
    return `${PSEUDO_OPEN}${accented}${padding}${PSEUDO_CLOSE}`;
  };
  return convert(english) as Texts;
}
