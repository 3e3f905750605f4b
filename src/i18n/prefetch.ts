import { preferencesStore } from '../state/preferences';
import { loadLanguage } from './instance';
import { languageReady } from './ready';

/**
 * Imported first by the bundle entry: ask for the page language's chunk while the rest of the bundle is
 * still evaluating, instead of after the first render — the chunk would otherwise be a second round
 * trip in front of every element's first screen. Its i18next instance is then ready for that first render.
 * While the stored choice is still being read (`languageKnown` false), the browser's language is asked
 * for at once, and the stored one too once it is known, if it differs.
 */
if (typeof document !== 'undefined') {
  void loadLanguage(preferencesStore.getState().language).catch(() => undefined);
  void languageReady(null);
}
