import { expect } from 'chai';
import { fireEvent, within } from '@testing-library/dom';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import '../../../src/index';
import { loadLanguage } from '../../../src/i18n/instance';
import { noticesStore } from '../../../src/state/notices';
import { sessionStore } from '../../../src/state/session';
import { useElementI18n } from '../../../src/i18n/use-element-i18n';
import { detectLanguage, LANGUAGES, matchLanguage, matchTag } from '../../../src/contract/languages';
import { mount, rendered } from '../support';

/**
 * A host page's own i18next, there before the elements' instance is made (it is made with the first
 * language chunk): the elements must neither use it nor change it.
 */
const calls: string[] = [];
const hostI18next = new Proxy(
  {},
  {
    get: (_target, name) => {
      calls.push(String(name));
      return () => 'the host page’s text';
    },
    set: (_target, name) => (calls.push(`set ${String(name)}`), true),
  },
);
(window as unknown as { i18next: unknown }).i18next = hostI18next;
const globalsBefore = new Set(Object.keys(window));
/** What the test harness adds: the runner, and @testing-library/react for `act()`. */
const HARNESS_GLOBALS = ['__WTR_MOCHA_RUNNER__', 'IS_REACT_ACT_ENVIRONMENT'];

// First in the file: Swedish must not be loaded yet, and later tests load every language.
describe('i18n: a change of language on screen', () => {
  it('keeps showing a language while the next one loads, so the screen is not replaced meanwhile', async () => {
    await loadLanguage('en');
    // What each render would show: a language, or nothing (a spinner in place of the screen).
    const shown: Array<string | null> = [];
    const { result, rerender } = renderHook(
      ({ lang }: { lang: string }) => {
        const value = useElementI18n(lang);
        shown.push(value.i18n ? `${value.language}:${value.i18n.language}` : null);
        return value;
      },
      { initialProps: { lang: 'en' } },
    );
    rerender({ lang: 'sv' }); // not loaded yet
    await waitFor(() => expect(result.current.language).to.equal('sv'));
    expect(shown).not.to.include(null);
    expect(shown.at(-1)).to.equal('sv:sv');
  });

  it('says a message already on screen in the new language', async () => {
    const element = mount('<acct-login></acct-login>');
    const view = within((await rendered(element)) as unknown as HTMLElement);
    fireEvent.click(await view.findByRole('button', { name: 'Continue' }));
    expect(await view.findByText('Enter your team name.')).to.exist;
    element.setAttribute('lang', 'nl');
    expect(await view.findByText('Voer de naam van je team in.')).to.exist;
    expect(view.getByRole('textbox', { name: 'Teamnaam' })).to.exist;
  });

  it('says a notice already on screen in the new language', async () => {
    const [en, nl] = await Promise.all([loadLanguage('en'), loadLanguage('nl')]);
    const element = mount('<acct-token></acct-token>');
    const view = within((await rendered(element)) as unknown as HTMLElement);
    // The snackbar is there once the session check has answered (nobody is signed in here).
    await waitFor(() => expect(sessionStore.getState().status).to.equal('loggedOut'), { timeout: 5000 });
    noticesStore.getState().show(['common.failed'], 'Failure');
    try {
      expect(await view.findByText(en.getFixedT('en')('common.failed'))).to.exist;
      element.setAttribute('lang', 'nl');
      expect(await view.findByText(nl.getFixedT('nl')('common.failed'))).to.exist;
    } finally {
      noticesStore.setState({ queue: [] });
    }
  });
});

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

  it('reads Chinese as Simplified unless the tag says Traditional, and any Norwegian as Bokmål', () => {
    // The twenty languages the product is being translated into, registered or not yet.
    const twenty = [
      'en',
      'fr',
      'es',
      'pt',
      'de',
      'ja',
      'da',
      'it',
      'nl',
      'pl',
      'sv',
      'nb',
      'fi',
      'cs',
      'tr',
      'uk',
      'zh-Hans',
      'ko',
      'ar',
      'he',
    ];
    const match = (tag: string) => matchTag(tag, twenty);
    for (const tag of ['zh', 'zh-CN', 'zh-SG', 'zh-Hans', 'zh-hans', 'zh-Hans-CN', 'zh_CN'])
      expect(match(tag), tag).to.equal('zh-Hans');
    for (const tag of ['zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant', 'zh-Hant-TW'])
      expect(match(tag), tag).to.equal(null);
    for (const tag of ['no', 'nb', 'nb-NO', 'nn', 'nn-NO', 'no-NO']) expect(match(tag), tag).to.equal('nb');
    expect(match('he-IL')).to.equal('he');
    expect(match('ar-EG')).to.equal('ar');
    expect(detectLanguage({ browser: ['zh-TW', 'ja'] })).to.equal('ja');
  });
});

describe('i18n: translation with the private i18next instance (spec §5)', () => {
  afterEach(() => document.body.replaceChildren());

  it('loads every language from its own chunk and translates', async () => {
    const seen = new Set<string>();
    for (const language of LANGUAGES) {
      const i18n = await loadLanguage(language);
      expect(i18n.language).to.equal(language);
      const text = i18n.t('common.loading');
      expect(text, language).to.not.equal('common.loading');
      seen.add(text);
    }
    expect(seen.size).to.equal(LANGUAGES.length);
  });

  it('interpolates i18next placeholders, as they are (React escapes)', async () => {
    const { t } = await loadLanguage('en');
    expect(t('common.home', { brand: 'Intoware' })).to.equal('Intoware home');
    expect(t('common.home', { brand: '<b>A&B</b>' })).to.equal('<b>A&B</b> home');
  });

  it('throws for an empty key, from the instance and from react-i18next’s t', async () => {
    const i18n = await loadLanguage('en');
    expect(() => i18n.t('')).to.throw('Parameter "key" required');
    expect(() => i18n.getFixedT('en')('')).to.throw('Parameter "key" required');
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(I18nextProvider, { i18n }, children);
    const { result } = renderHook(() => useTranslation(), { wrapper });
    expect(result.current.t('common.cancel')).to.equal('Cancel');
    expect(() => result.current.t('')).to.throw('Parameter "key" required');
  });

  it('shows the key itself when it is missing, or the default value when the call gives one', async () => {
    const { t } = await loadLanguage('fr');
    expect(t('no.such.key')).to.equal('no.such.key');
    expect(t('no.such: key')).to.equal('no.such: key', 'a colon is not a namespace');
    expect(t('common')).to.equal('common', 'a key naming a group of texts is not a text');
    expect(t('no.such.key', { defaultValue: 'Lire les rapports' })).to.equal('Lire les rapports');
    expect(t('common.loading', { defaultValue: 'x' })).to.not.equal('x');
  });

  it('has no fallback language: a text missing in one language is not taken from another', async () => {
    const en = await loadLanguage('en');
    const de = await loadLanguage('de');
    en.addResource('en', 'translation', 'test.onlyEnglish', 'Only in English');
    expect(en.t('test.onlyEnglish')).to.equal('Only in English');
    expect(de.t('test.onlyEnglish')).to.equal('test.onlyEnglish');
  });

  it('leaves a placeholder without its value as it is, for the missing value to show', async () => {
    const { t } = await loadLanguage('en');
    expect(t('common.home', {})).to.equal('{{brand}} home');
  });

  it('shows elements with different lang attributes on one page, each in its own language', async () => {
    const french = mount('<acct-login lang="fr"></acct-login>');
    const japanese = mount('<acct-login lang="ja"></acct-login>');
    const english = mount('<acct-login></acct-login>');
    const shows = async (element: HTMLElement, name: string) =>
      within((await rendered(element)) as unknown as HTMLElement).findByRole('heading', { name });
    expect(await shows(french, 'Connectez-vous à votre équipe')).to.exist;
    expect(await shows(japanese, 'チームにサインイン')).to.exist;
    expect(await shows(english, 'Sign in to your team')).to.exist;
    french.setAttribute('lang', 'de');
    expect(await shows(french, 'Bei Ihrem Team anmelden')).to.exist;
    expect(await shows(japanese, 'チームにサインイン')).to.exist;
    expect(await shows(english, 'Sign in to your team')).to.exist;
    // Without its attribute, or with an empty one, the element is in the visitor's language again.
    french.removeAttribute('lang');
    expect(await shows(french, 'Sign in to your team')).to.exist;
    japanese.setAttribute('lang', '');
    expect(await shows(japanese, 'Sign in to your team')).to.exist;
  });

  it('does not touch the page: the host’s i18next unused and unchanged, no globals added', async () => {
    await loadLanguage('da');
    mount('<acct-login lang="da"></acct-login>');
    expect((window as unknown as { i18next: unknown }).i18next).to.equal(hostI18next);
    expect(calls).to.deep.equal([]);
    const added = Object.keys(window).filter(
      (key) => !globalsBefore.has(key) && !HARNESS_GLOBALS.includes(key),
    );
    expect(added).to.deep.equal([]);
  });
});
