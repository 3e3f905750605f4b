import i18next, { type BackendModule, type TFunction } from 'i18next';
import { loadChunk } from './chunks';
import { LANGUAGES, type Language } from './languages';

const chunkBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!(LANGUAGES as readonly string[]).includes(language)) {
      callback(new Error(`unsupported language ${language}`), false);
      return;
    }
    loadChunk(language as Language).then(
      (resources) => callback(null, resources),
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

const loading = new Map<Language, Promise<Translate>>();

/** Load a language's chunk (once; concurrent callers share the request) and return its translator. */
export function loadTranslator(language: Language): Promise<Translate> {
  let pending = loading.get(language);
  if (!pending) {
    pending = ready
      .then(() => instance.loadLanguages(language))
      .then(() => strict(instance.getFixedT(language)));
    loading.set(language, pending);
    pending.catch(() => loading.delete(language));
  }
  return pending;
}
