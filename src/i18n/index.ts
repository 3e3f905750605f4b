import { loadChunk, type Resources } from './chunks';
import type { Language } from './languages';

/**
 * The elements' own translator: never the host page's, nothing global (design §1). It covers what the
 * texts use, with i18next's conventions, so the locale files stay i18next resources:
 *
 * - keys are dotted paths into the language's JSON (`login.signIn.title`);
 * - a missing key, or one whose text is empty or not a string, shows the key itself (spec §5) — or
 *   `defaultValue`, when the call gives one; there is no fallback language;
 * - `{name}` interpolates an option as it is (no escaping: React escapes), `{n, number}` formats it with
 *   the language's `Intl.NumberFormat`; a placeholder without its option becomes empty;
 * - `count` picks `key_one`, `key_other`… by the language's `Intl.PluralRules`, then falls back to `key`.
 *
 * Design §1 names a private i18next instance. It was the largest library in the sign-in page's bundle
 * after React (49 KB of 310 KB) and cost about 90 ms of the page's main thread at 4× CPU, for the six
 * features above: see src/README.md and issue 10.
 */

/** Translate: a function of a key and options, bound to one language. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Each loaded language's translator (one function per language, so renders see a stable `t`). */
const translators = new Map<Language, Translate>();
const numberFormats = new Map<Language, Intl.NumberFormat>();
const pluralRules = new Map<Language, Intl.PluralRules>();

function cached<T>(map: Map<Language, T>, language: Language, make: () => T): T {
  let value = map.get(language);
  if (value === undefined) {
    value = make();
    map.set(language, value);
  }
  return value;
}

function textAt(resources: Resources, key: string): string | undefined {
  let node: unknown = resources;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' && node !== '' ? node : undefined;
}

const PLACEHOLDER = /\{(\w+)(?:,\s*(\w+))?\}/g;

function translator(language: Language, resources: Resources): Translate {
  return (key, options) => {
    if (!key) throw new Error('Parameter "key" required');
    const count = options?.count;
    let text: string | undefined;
    if (typeof count === 'number') {
      const form = cached(pluralRules, language, () => new Intl.PluralRules(language)).select(count);
      text = textAt(resources, `${key}_${form}`) ?? textAt(resources, `${key}_other`);
    }
    text ??= textAt(resources, key);
    if (text === undefined) {
      const fallback = options?.defaultValue;
      return typeof fallback === 'string' && fallback ? fallback : key;
    }
    if (!options || !text.includes('{')) return text;
    return text.replace(PLACEHOLDER, (_whole, name: string, format: string | undefined) => {
      const value = options[name];
      if (value === undefined || value === null) return '';
      if (format === 'number' && typeof value === 'number') {
        return cached(numberFormats, language, () => new Intl.NumberFormat(language)).format(value);
      }
      return String(value);
    });
  };
}

/** Whether a language's chunk is in memory (so a translator is available synchronously). */
export function isLoaded(language: Language): boolean {
  return translators.has(language);
}

/** A translator for a language, if its chunk is already loaded. */
export function translatorNow(language: Language): Translate | null {
  return translators.get(language) ?? null;
}

const loading = new Map<Language, Promise<Translate>>();

/** Load a language's chunk (once; concurrent callers share the request) and return its translator. */
export function loadTranslator(language: Language): Promise<Translate> {
  let pending = loading.get(language);
  if (!pending) {
    pending = loadChunk(language).then((resources) => {
      const t = translator(language, resources);
      translators.set(language, t);
      return t;
    });
    loading.set(language, pending);
    pending.catch(() => loading.delete(language));
  }
  return pending;
}
