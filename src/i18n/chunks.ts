import { afterEvaluation } from '../after-evaluation';
import type { Language } from '../contract/languages';

export type Resources = Record<string, unknown>;

/** One lazily loaded chunk per language. */
const loaders: Record<Language, () => Promise<{ default: Resources }>> = {
  en: () => import('./locales/en.json'),
  fr: () => import('./locales/fr.json'),
  es: () => import('./locales/es.json'),
  pt: () => import('./locales/pt.json'),
  de: () => import('./locales/de.json'),
  ja: () => import('./locales/ja.json'),
  da: () => import('./locales/da.json'),
  ar: () => import('./locales/ar.json'),
  it: () => import('./locales/it.json'),
  nl: () => import('./locales/nl.json'),
  pl: () => import('./locales/pl.json'),
  sv: () => import('./locales/sv.json'),
  nb: () => import('./locales/nb.json'),
  fi: () => import('./locales/fi.json'),
  cs: () => import('./locales/cs.json'),
  tr: () => import('./locales/tr.json'),
  uk: () => import('./locales/uk.json'),
  'zh-Hans': () => import('./locales/zh-Hans.json'),
  ko: () => import('./locales/ko.json'),
  he: () => import('./locales/he.json'),
};

const requested = new Map<Language, Promise<Resources>>();

/** A language's texts; the chunk is requested once (a failed request may be tried again). */
export function loadChunk(language: Language): Promise<Resources> {
  let pending = requested.get(language);
  if (!pending) {
    // `import()` waits for the bundle's evaluation to end (see after-evaluation.ts).
    pending = afterEvaluation.then(loaders[language]).then((module) => module.default);
    requested.set(language, pending);
    pending.catch(() => requested.delete(language));
  }
  return pending;
}
