import { knownLanguage } from '../state/preferences';
import { loadLanguage } from './instance';
import { matchLanguage } from '../contract/languages';

/**
 * Settles once an element's language can be shown: its `lang` attribute's language, or else the page's
 * once the stored choice is known, with its chunk loaded. Never rejects: a chunk that fails to load is
 * the element's to report once it renders.
 */
export function languageReady(langAttribute: string | null): Promise<void> {
  const done = () => undefined;
  const attribute = matchLanguage(langAttribute);
  return (attribute ? loadLanguage(attribute) : knownLanguage().then(loadLanguage)).then(done, done);
}
