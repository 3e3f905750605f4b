import { loadChunk } from './chunks';
import { detectLanguage } from './languages';
import { readStoredLanguage } from './stored-language';

/**
 * Imported first by the bundle entry: ask for the page language's chunk while the rest of the bundle is
 * still evaluating, instead of after the first render — the chunk would otherwise be a second round
 * trip in front of every element's first screen.
 */
if (typeof document !== 'undefined') {
  void loadChunk(detectLanguage({ stored: readStoredLanguage(), browser: navigator.languages ?? [] })).catch(
    () => undefined,
  );
}
