import i18next, { type i18n, type InitOptions } from 'i18next';
import { loadChunk, type Resources } from './chunks';
import { directionOf, type Language } from '../contract/languages';
import { isolateValues } from './bidi';

/**
 * The elements' own i18next (design §1): one instance made with `createInstance()`, module state of the
 * bundle — never the host page's i18next, nothing global. It starts with the first language whose chunk
 * arrives (chunks.ts: one lazily loaded chunk per language, none in the entry), its texts already in;
 * each later language's texts are added to its store, and that language gets a clone sharing the store,
 * so elements with different `lang` attributes can sit on one page.
 */
const OPTIONS: InitOptions = {
  // Everything is in memory when an instance is made: no backend, no detector (languages.ts detects).
  initAsync: false,
  // A missing key shows the key itself (spec §5), never a text of another language.
  fallbackLng: false,
  // One namespace: a key is a dotted path, and a colon in it is text, not a namespace. The key separator
  // is given, as i18next's default is: otherwise every lookup first asks whether the key is a sentence.
  nsSeparator: false,
  keySeparator: '.',
  returnEmptyString: false,
  // A key that names a group of texts is not a text: it shows as itself, like a missing one.
  returnedObjectHandler: (key) => key,
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  // An element renders once its language is in (ready.ts), and a clone never changes language.
  react: { useSuspense: false, bindI18n: '' },
};

let base: i18n | undefined;

/**
 * The instance for a language whose chunk has just arrived. The first one is made then, not while the
 * bundle evaluates, and initialised with its texts: i18next starts once, and that language needs no
 * clone.
 */
function instanceFor(language: Language, resources: Resources): i18n {
  if (!base) {
    base = wrapT(i18next.createInstance());
    void base.init({ ...OPTIONS, lng: language, resources: { [language]: { translation: resources } } });
    return base;
  }
  base.addResourceBundle(language, 'translation', resources);
  return wrapT(base.cloneInstance({ lng: language }));
}

/**
 * The instance's `t`, which react-i18next's `t` and `<Trans>` call too, made stricter in two ways:
 * - spec §5: a lookup needs a key. i18next answers `t('')` with an empty string; this one throws.
 * - the values filled into a sentence (names, teams, addresses) are bidi-isolated where their
 *   direction may differ from the sentence's (bidi.ts).
 */
function wrapT(instance: i18n): i18n {
  const translate = instance.t;
  instance.t = ((...args: Parameters<i18n['t']>) => {
    if (!args[0]) throw new Error('Parameter "key" required');
    const [key, options, ...rest] = args as unknown as [unknown, unknown, ...unknown[]];
    if (!options || typeof options !== 'object') return translate(...args);
    const language = (options as { lng?: string }).lng ?? instance.language;
    const isolated = isolateValues(options as Record<string, unknown>, directionOf(language ?? ''));
    return (translate as unknown as (...all: unknown[]) => unknown)(key, isolated, ...rest);
  }) as i18n['t'];
  return instance;
}

const instances = new Map<Language, i18n>();
const loading = new Map<Language, Promise<i18n>>();

/** A language's instance, if its chunk is already loaded. */
export function instanceNow(language: Language): i18n | null {
  return instances.get(language) ?? null;
}

/** Load a language's chunk (once; concurrent callers share the request) and return its instance. */
export function loadLanguage(language: Language): Promise<i18n> {
  let pending = loading.get(language);
  if (!pending) {
    pending = loadChunk(language).then((resources) => {
      const instance = instanceFor(language, resources);
      instances.set(language, instance);
      return instance;
    });
    loading.set(language, pending);
    pending.catch(() => loading.delete(language));
  }
  return pending;
}

/** What a language needs besides its chunk before an element already on screen switches to it. */
type Preparation = (instance: i18n) => Promise<unknown>;
const preparations = new Set<Preparation>();

/**
 * Register what an element switching language waits for besides the chunk (the text parts its screens
 * use): registered by the modules that know, so that the entry does not carry them.
 */
export function beforeLanguageSwitch(prepare: Preparation): void {
  preparations.add(prepare);
}

/**
 * A language's instance with everything an element on screen needs to switch to it at once: until
 * then the element keeps its language, and what its screen holds (fields, dialogs, messages) stays.
 */
export async function loadLanguageToSwitch(language: Language): Promise<i18n> {
  const instance = await loadLanguage(language);
  // A part that cannot load is the screen's to report once shown, as at a first load.
  await Promise.all([...preparations].map((prepare) => prepare(instance).catch(() => undefined)));
  return instance;
}
