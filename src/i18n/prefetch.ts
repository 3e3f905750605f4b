import { loadTranslator } from './index';
import { detectLanguage } from './languages';
import { storedLanguage } from './stored-language';

/**
 * Imported first by the bundle entry: ask for the page language's chunk while the rest of the bundle is
 * still evaluating, instead of after the first render — the chunk would otherwise be a second round
 * trip in front of every element's first screen. Its translator is then ready for that first render.
 * While the stored choice is still being read (see `storedLanguage`), the browser's language is asked
 * for at once, and the stored one too once it is known, if it differs.
 */
if (typeof document !== 'undefined') {
  const browser = navigator.languages ?? [];
  const ask = (stored: string | null) =>
    void loadTranslator(detectLanguage({ stored, browser })).catch(() => undefined);
  const stored = storedLanguage();
  if (stored.settled) ask(stored.value);
  else {
    ask(null);
    void stored.value.then(ask);
  }
}
