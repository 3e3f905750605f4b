import { knownLanguage } from '../state/preferences';
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
  return (attribute ? loadTranslator(attribute) : knownLanguage().then(loadTranslator)).then(done, done);
}
