import i18next, { type BackendModule, type TFunction } from 'i18next';
import { LANGUAGES, type Language } from './languages';

type Resources = Record<string, unknown>;

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

const chunkBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = loaders[language as Language];
    if (!load) {
      callback(new Error(`unsupported language ${language}`), false);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * The elements' private i18next instance: never the host page's global one. No fallback language —
 * a missing key shows the key itself (spec §5) — and interpolation uses single braces (`{n}`).
 */
const instance = i18next.createInstance();
const ready = instance.use(chunkBackend).init({
  supportedLngs: [...LANGUAGES],
  fallbackLng: false,
  load: 'languageOnly',
  initAsync: true,
  partialBundledLanguages: true,
  resources: {},
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  returnEmptyString: false,
});

/** Translate: a function of a key and options, bound to one language. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

function strict(fixed: TFunction): Translate {
  return (key, options) => {
    if (!key) throw new Error('Parameter "key" required');
    return String(fixed(key, options));
  };
}

/** Whether a language's chunk is in memory (so a translator is available synchronously). */
export function isLoaded(language: Language): boolean {
  return instance.hasResourceBundle(language, 'translation');
}

/** A translator for a language, if its chunk is already loaded. */
export function translatorNow(language: Language): Translate | null {
  return isLoaded(language) ? strict(instance.getFixedT(language)) : null;
}

/** Load a language's chunk (once) and return its translator. */
export async function loadTranslator(language: Language): Promise<Translate> {
  await ready;
  await instance.loadLanguages(language);
  return strict(instance.getFixedT(language));
}
