import { expect } from 'chai';
import { waitFor } from '@testing-library/dom';
import '../../../src/index';
import { loadLanguage } from '../../../src/i18n/instance';
import type { Language } from '../../../src/contract/languages';
import { loadTextPart } from '../../../src/i18n/parts';
import { sessionStore } from '../../../src/state/session';
import { logoutEverywhere, mount, screenOf } from '../support';

/** A language's `t`, from the elements' i18next instance, with the manage, admin and account parts' texts. */
async function translator(language: Language) {
  const instance = await loadLanguage(language);
  for (const part of ['manage', 'admin', 'account'] as const)
    instance.addResourceBundle(language, 'translation', await loadTextPart(part, language), true, false);
  return instance.t;
}

/**
 * Dates, numbers and plurals in the reader's language: numbers go through i18next's Intl
 * formatter (`{{n, number}}`), plurals through Intl.PluralRules, dates through Intl.DateTimeFormat.
 */
describe('i18n: dates, numbers and plurals in German and Japanese', () => {
  afterEach(async () => {
    document.body.replaceChildren();
    await logoutEverywhere();
  });

  it('formats interpolated numbers for the language', async () => {
    const de = await translator('de');
    const ja = await translator('ja');
    expect(de('team.users', { used: 1234, limit: 10000 })).to.equal('1.234/10.000 Benutzer');
    expect(ja('team.users', { used: 1234, limit: 10000 })).to.equal('1,234/10,000 ユーザー');
    expect(de('manage.name.tooLong', { n: 1500 })).to.equal(
      'Ihr Name darf höchstens 1.500 Zeichen lang sein.',
    );
  });

  it('chooses the plural form by the language’s rules', async () => {
    const de = await translator('de');
    const ja = await translator('ja');
    expect(de('team.limitDialog.members', { count: 1 })).to.equal('1 Mitglied');
    expect(de('team.limitDialog.members', { count: 2 })).to.equal('2 Mitglieder');
    expect(de('qr.caption', { code: 'AB-12', count: 1 })).to.equal(
      'Code AB-12. Er ist nur einmal gültig und läuft in 1 Minute ab.',
    );
    expect(de('qr.caption', { code: 'AB-12', count: 10 })).to.match(/in 10 Minuten ab\.$/);
    // French has a third form, for millions: "1 000 000 de minutes".
    const fr = await translator('fr');
    expect(fr('qr.caption', { code: 'AB-12', count: 2 })).to.match(/dans 2 minutes\.$/);
    expect(fr('qr.caption', { code: 'AB-12', count: 1_000_000 })).to.match(/dans 1\s000\s000 de minutes\.$/);
    expect(fr('team.limitDialog.members', { count: 1_000_000 })).to.match(/^1\s000\s000 membres$/);
    // Japanese has a single form: the count changes, the words do not.
    expect(ja('team.limitDialog.members', { count: 1 })).to.equal('1 人');
    expect(ja('team.limitDialog.members', { count: 2 })).to.equal('2 人');
  });

  for (const [language, pattern] of [
    [
      'de',
      /^(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4}$/,
    ],
    ['ja', /^\d{4}年\d{1,2}月\d{1,2}日[月火水木金土日]曜日$/],
  ] as const) {
    it(`renders the account's creation date in ${language}`, async () => {
      const response = await fetch(`/__test/session?email=${encodeURIComponent('ada@acme.test')}`);
      expect(response.ok).to.equal(true);
      sessionStore.getState().reset();
      expect(await sessionStore.getState().check()).to.equal(true);
      const element = mount(`<acct-manage lang="${language}"></acct-manage>`);
      const view = await screenOf(element);
      const t = await translator(language);
      await view.findByRole('heading', { level: 1, name: t('manage.heading.info') });
      // The heading shows at once; the personal info, with the date, when the user's details arrive.
      const created = await waitFor(() => {
        const time = element.shadowRoot!.querySelector('dd time');
        if (!time) throw new Error('no creation date yet');
        return time;
      });
      expect(created.textContent).to.match(pattern);
    });
  }
});
