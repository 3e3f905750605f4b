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
