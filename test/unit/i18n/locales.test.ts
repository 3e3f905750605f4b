import { expect } from 'chai';
import da from '../../../src/i18n/locales/da.json';
import de from '../../../src/i18n/locales/de.json';
import en from '../../../src/i18n/locales/en.json';
import es from '../../../src/i18n/locales/es.json';
import fr from '../../../src/i18n/locales/fr.json';
import ja from '../../../src/i18n/locales/ja.json';
import pt from '../../../src/i18n/locales/pt.json';

const LOCALES: Record<string, unknown> = { en, fr, es, pt, de, ja, da };

function flatten(value: unknown, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (child && typeof child === 'object') Object.assign(out, flatten(child, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = String(child);
  }
  return out;
}

/** The placeholders with their format (`n, number`): a language must format a number the same way. */
const placeholders = (text: string) =>
  [...text.matchAll(/\{(\w+)(?:,\s*(\w+))?\}/g)].map((m) => (m[2] ? `${m[1]}, ${m[2]}` : m[1])).sort();

/**
 * Values that are rightly the same as the English ones: words these languages share with English
 * (German "Team", "Name"…). Anything else equal to English is an untranslated text.
 */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  de: [
    'manage.info.team',
    'manage.info.name',
    'manage.permissions.ADMIN',
    'header.dashboard',
    'header.apps.label',
    'header.apps.dashboard',
    'team.support',
  ],
  da: [
    'manage.info.team',
    'manage.permissions.ADMIN',
    'header.dashboard',
    'header.apps.label',
    'header.apps.dashboard',
    'team.support',
  ],
  es: ['manage.permissions.EDITOR'],
  pt: ['manage.permissions.EDITOR'],
};

describe('locale files', () => {
  const english = flatten(en);

  for (const [language, file] of Object.entries(LOCALES)) {
    it(`${language}: every key, no extra key, no empty value, the same placeholders`, () => {
      const texts = flatten(file);
      expect(Object.keys(texts).sort()).to.deep.equal(Object.keys(english).sort());
      for (const [key, text] of Object.entries(texts)) {
        expect(text.trim(), `${language} ${key}`).to.not.equal('');
        expect(placeholders(text), `${language} ${key}`).to.deep.equal(placeholders(english[key]!));
      }
    });

    if (language !== 'en') {
      it(`${language}: translated (no value left in English)`, () => {
        const texts = flatten(file);
        const allowed = SAME_AS_ENGLISH[language] ?? [];
        const untranslated = Object.keys(texts).filter(
          (key) => texts[key] === english[key] && !allowed.includes(key),
        );
        expect(untranslated).to.deep.equal([]);
      });
    }
  }
});
