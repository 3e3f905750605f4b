import { preferencesStore } from '../state/preferences';
import { loadTranslator } from './index';
import { matchLanguage } from './languages';

/**
 * Settles once an element's language can be shown: its `lang` attribute's language, or else the page's
 * once the stored choice is known, with its chunk loaded. Never rejects: a chunk that fails to load is
 * the element's to report once it renders.
 */
export function languageReady(langAttribute: string | null): Promise<void> {
  const done = () => undefined;
  const attribute = matchLanguage(langAttribute);
  if (attribute) return loadTranslator(attribute).then(done, done);
  return new Promise<void>((resolve) => {
    const settle = (known: boolean, language: Parameters<typeof loadTranslator>[0]) => {
      if (known) resolve(loadTranslator(language).then(done, done));
      return known;
    };
    const state = preferencesStore.getState();
    if (settle(state.languageKnown, state.language)) return;
    const stop = preferencesStore.subscribe((next) => {
      if (settle(next.languageKnown, next.language)) stop();
    });
  });
}
