import { expect } from 'chai';
import { loadLanguage } from '../../../src/i18n/instance';
import { loadTextPart } from '../../../src/i18n/parts';
import type { Language } from '../../../src/contract/languages';

/** A language's `t` with the administration texts (where the member counts are). */
async function translator(language: Language) {
  const instance = await loadLanguage(language);
  instance.addResourceBundle(language, 'translation', await loadTextPart('admin', language), true, false);
  return instance.t;
}

/**
 * i18next picks plural forms with Intl.PluralRules (its v4 JSON): each count lands on the form of the
 * category the language's rules give it, for the languages with more than one and other.
 */
describe('i18n: plural forms by each language’s rules', () => {
  for (const [language, counts] of [
    ['pl', { one: 1, few: 3, many: 5, other: 1.5 }],
    ['uk', { one: 21, few: 2, many: 11, other: 1.5 }],
    ['cs', { one: 1, few: 4, many: 1.5, other: 7 }],
    ['ar', { zero: 0, one: 1, two: 2, few: 3, many: 11, other: 100 }],
    ['he', { one: 1, two: 2, other: 7 }],
  ] as const) {
    it(`${language}: ${Object.keys(counts).join(', ')}`, async () => {
      const t = await translator(language);
      const seen = new Set<string>();
      for (const [category, count] of Object.entries(counts)) {
        expect(new Intl.PluralRules(language).select(count), `${count}`).to.equal(category);
        const form = t(`team.limitDialog.members_${category}`, { count });
        expect(form, category).to.not.equal(`team.limitDialog.members_${category}`);
        expect(t('team.limitDialog.members', { count }), `${language} ${count}`).to.equal(form);
        seen.add(form);
      }
      expect(seen.size).to.equal(Object.keys(counts).length);
    });
  }
});
