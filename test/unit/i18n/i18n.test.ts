import { expect } from 'chai';
import { loadTranslator } from '../../../src/i18n';
import { detectLanguage, LANGUAGES, matchLanguage } from '../../../src/i18n/languages';

describe('i18n: detection (design §3)', () => {
  it('prefers the element attribute, then the stored preference, then the browser', () => {
    expect(detectLanguage({ attribute: 'de', stored: 'fr', browser: ['es'] })).to.equal('de');
    expect(detectLanguage({ attribute: null, stored: 'fr', browser: ['es'] })).to.equal('fr');
    expect(detectLanguage({ stored: null, browser: ['es-MX', 'fr'] })).to.equal('es');
  });

  it('falls back to the language part, then to en', () => {
    expect(detectLanguage({ browser: ['pt-BR'] })).to.equal('pt');
    expect(detectLanguage({ browser: ['zz'] })).to.equal('en');
    expect(detectLanguage({ browser: ['zz', 'ja-JP'] })).to.equal('ja');
    expect(detectLanguage({})).to.equal('en');
    expect(detectLanguage({ attribute: 'xx', stored: 'da' })).to.equal('da');
  });

  it('matches tags case-insensitively', () => {
    expect(matchLanguage('DA-dk')).to.equal('da');
    expect(matchLanguage('fr_CA')).to.equal('fr');
    expect(matchLanguage('')).to.equal(null);
  });
});

describe('i18n: translation (spec §5)', () => {
  it('loads every language from its own chunk and translates', async () => {
    const seen = new Set<string>();
    for (const language of LANGUAGES) {
      const t = await loadTranslator(language);
      const text = t('common.loading');
      expect(text, language).to.not.equal('common.loading');
      seen.add(text);
    }
    expect(seen.size).to.equal(LANGUAGES.length);
  });

  it('interpolates single-brace placeholders', async () => {
    const t = await loadTranslator('en');
    expect(t('common.home', { brand: 'Intoware' })).to.equal('Intoware home');
  });

  it('throws for an empty key', async () => {
    const t = await loadTranslator('en');
    expect(() => t('')).to.throw('Parameter "key" required');
  });

  it('shows the key itself when it is missing, or the default value when the call gives one', async () => {
    const t = await loadTranslator('fr');
    expect(t('no.such.key')).to.equal('no.such.key');
    expect(t('common')).to.equal('common', 'a key naming a group of texts is not a text');
    expect(t('no.such.key', { defaultValue: 'Lire les rapports' })).to.equal('Lire les rapports');
    expect(t('common.loading', { defaultValue: 'x' })).to.not.equal('x');
  });

  it('leaves a placeholder without its value empty', async () => {
    const t = await loadTranslator('en');
    expect(t('common.home', {})).to.equal(' home');
  });

  it('does not touch the page: no globals added', async () => {
    const before = new Set(Object.keys(window));
    await loadTranslator('de');
    const added = Object.keys(window).filter((key) => !before.has(key));
    expect(added).to.deep.equal([]);
    expect((window as unknown as Record<string, unknown>).i18next).to.equal(undefined);
  });
});
