/**
 * The locale files (and the server's texts) as i18next reads them: every language has every text, in
 * the plural forms its `Intl.PluralRules` asks for; placeholders are i18next's `{{name}}` or
 * `{{name, number}}` — nothing in the old single-brace syntax, which i18next would show as it is — and
 * each language has the same placeholders and tags (`<provider>…</provider>` for `<Trans>`) as English.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEXTS } from '../../demo/server/mail/texts';
import { LANGUAGES } from '../../src/contract/languages';
import { PARTS, flatten, locale } from './locale-files';

const PLURAL = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{(\w+)(?:, (\w+))?\}\}/g;
const FORMATS = ['number'];
const VOID_ELEMENTS = [
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
];

/** What a text interpolates and wraps, sorted: `n, number`, `name`, `<provider>`… */
function markup(text: string): string[] {
  const placeholders = [...text.matchAll(PLACEHOLDER)].map((m) => (m[2] ? `${m[1]}, ${m[2]}` : m[1]!));
  const tags = [...text.matchAll(/<(\/?\w+)>/g)].map((m) => `<${m[1]}>`);
  return [...placeholders, ...tags].sort();
}

/** What is wrong with a text's placeholders: a brace outside `{{name}}`, an unknown format. */
function badPlaceholders(text: string): string[] {
  const problems = [...text.matchAll(PLACEHOLDER)]
    .filter((m) => m[2] && !FORMATS.includes(m[2]))
    .map((m) => `unknown format: ${m[0]}`);
  if (/[{}]/.test(text.replace(PLACEHOLDER, ''))) problems.push(`a brace outside {{name}}: ${text}`);
  // `<Trans>` parses the text as HTML: a void element (`<link>`, `<br>`…) holds nothing, and the words
  // meant to be inside it would follow it instead.
  for (const [, tag] of text.matchAll(/<(\w+)>/g)) {
    if (VOID_ELEMENTS.includes(tag!.toLowerCase())) problems.push(`a void element as a tag: <${tag}>`);
  }
  return problems;
}

/**
 * The plural categories of a language that stand for one number only (Arabic's zero, one and two;
 * Hebrew's one and two): their word says the number — "عضوان", two members — so their text may leave
 * the count out, as CLDR's own patterns do. Not Ukrainian's "one", which is also 21, 31…
 */
function singleNumberCategories(language: string): Set<string> {
  const rules = new Intl.PluralRules(language);
  const numbers = new Map<string, number>();
  for (let n = 0; n <= 1000; n++) {
    const category = rules.select(n);
    numbers.set(category, (numbers.get(category) ?? 0) + 1);
  }
  return new Set([...numbers].filter(([, count]) => count === 1).map(([category]) => category));
}

/** A text's markup, less the count where its plural form may leave it out. */
function markupOf(key: string, text: string, exact: Set<string>): string[] {
  const form = PLURAL.exec(key)?.[1];
  const all = markup(text);
  return form && exact.has(form) ? all.filter((item) => item !== 'count' && item !== 'count, number') : all;
}

/** Texts by key without its plural suffix; each with the plural forms it has (empty: not a plural). */
function byBaseKey(texts: Record<string, string>): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const key of Object.keys(texts)) {
    const form = PLURAL.exec(key)?.[1];
    const base = key.replace(PLURAL, '');
    keys.set(base, [...(keys.get(base) ?? []), ...(form ? [form] : [])]);
  }
  return keys;
}

/**
 * Values that are rightly the same as the English ones: words these languages share with English
 * (German "Team", "Name"…). Anything else equal to English is an untranslated text.
 */
/** Product names, the same in every language. */
const NAMES = [
  'connections.presets.okta.name',
  'connections.presets.entra.name',
  'connections.presets.google.name',
];

const SAME_AS_ENGLISH: Record<string, string[]> = {
  de: [
    'strength.withReason',
    'manage.info.team',
    'manage.info.name',
    'manage.permissions.ADMIN',
    'header.dashboard',
    'header.apps.label',
    'header.apps.dashboard',
    'team.support',
    'security.passkeys.title',
    'common.methods.passkeys',
    'security.passkeys.name',
    'recoveryCodes.fileTeam',
    'team.logFilter.app',
    'team.logFilter.domain',
    'manage.nav.teamApps',
    'teamApps.fields.name',
    'teamApps.columns.status',
    'manage.nav.teamDomains',
    'domains.title',
    'domains.record.name',
    'domains.add.field',
    'connections.fields.name',
    'connections.claims.name',
    'directories.fields.name',
    'directories.token.label',
    'streaming.columns.state',
  ],
  da: [
    'strength.withReason',
    'manage.info.team',
    'manage.permissions.ADMIN',
    'header.dashboard',
    'header.apps.label',
    'header.apps.dashboard',
    'team.support',
    'recoveryCodes.fileTeam',
    'team.log.options.auth0',
    // The actor and what they changed, both filled in: the sentence is its placeholders.
    'team.log.team.loginOptions',
    'manage.nav.menu',
    'team.logFilter.app',
    'manage.nav.teamApps',
    'domains.record.type',
    'team.logFilter.connection',
    'manage.heading.teamConnections',
    'manage.nav.teamConnections',
    'connections.title',
    'connections.test.open',
    'connections.test.action',
    // Danish says single sign-on in English, as the product's name for it.
    'users.methods.sso',
    'activity.methods.sso',
    'directories.token.label',
    'streaming.columns.state',
    'events.kind',
    'team.log.methods.sso',
    'team.log.methods.auth0',
    'events.export.csv',
    'events.export.json',
  ],
  es: [
    'manage.permissions.EDITOR',
    'team.log.team.loginOptions',
    'directories.token.label',
    'strength.withReason',
  ],
  fr: [
    'manage.nav.sessions',
    'team.logFilter.invitation',
    'domains.record.type',
    'team.logFilter.session',
    'events.kind',
  ],
  // The languages added together: loanwords their software uses as English does (Italian and Dutch
  // "Account", "Dashboard", "Team"; "Token", "Status"…), placeholders-only sentences, and the recovery
  // codes' file name, which Arabic, Hebrew, Chinese and Korean keep in Latin letters for file systems.
  it: [
    'common.methods.password',
    'login.email',
    'login.password',
    'header.dashboard',
    'header.apps.dashboard',
    'header.apps.account',
    'manage.heading.teamConnections',
    'manage.nav.label',
    'manage.nav.team',
    'manage.nav.menu',
    'manage.nav.teamConnections',
    'manage.info.team',
    'manage.permissions.EDITOR',
    'manage.password.title',
    'team.manager',
    'team.managerEmail',
    'team.inviteDialog.email',
    'team.logFilter.connection',
    'users.methods.password',
    'users.methods.sso',
    'connections.title',
    'directories.token.label',
    'activity.methods.password',
    'activity.methods.passkey',
    'activity.methods.sso',
    'token.idToken',
    'recoveryCodes.fileTeam',
    'team.log.methods.auth0',
    'team.log.methods.sso',
    'strength.withReason',
  ],
  nl: [
    'header.dashboard',
    'header.apps.label',
    'header.apps.dashboard',
    'header.apps.account',
    'manage.heading.teamConnections',
    'manage.nav.label',
    'manage.nav.team',
    'manage.nav.menu',
    'manage.nav.teamApps',
    'manage.nav.teamConnections',
    'manage.info.team',
    'team.log.options.auth0',
    'team.logFilter.app',
    'team.logFilter.connection',
    'users.columns.status',
    'users.methods.sso',
    'teamApps.columns.status',
    'domains.record.type',
    'connections.title',
    'directories.token.label',
    'activity.methods.sso',
    'recoveryCodes.fileTeam',
    'recoveryCodes.fileSite',
    'login.join.code',
    'events.kind',
    'streaming.columns.state',
    'team.log.methods.auth0',
    'team.log.methods.sso',
    'strength.withReason',
  ],
  pl: ['manage.nav.menu', 'manage.permissions.ADMIN', 'directories.token.label', 'strength.withReason'],
  sv: [
    'manage.nav.team',
    'manage.info.team',
    'team.support',
    'team.log.team.loginOptions',
    'users.columns.status',
    'teamApps.columns.status',
    'directories.token.label',
    'recoveryCodes.fileTeam',
    'streaming.columns.state',
    'strength.withReason',
  ],
  nb: [
    'manage.nav.team',
    'manage.info.team',
    'manage.permissions.ADMIN',
    'team.log.team.loginOptions',
    'users.columns.status',
    'teamApps.columns.status',
    'domains.record.type',
    'connections.test.open',
    'connections.test.action',
    'directories.token.label',
    'recoveryCodes.fileTeam',
    'events.kind',
    'streaming.columns.state',
    'strength.withReason',
  ],
  fi: ['team.log.team.loginOptions', 'strength.withReason'],
  cs: [
    'manage.permissions.EDITOR',
    'directories.token.label',
    'token.idToken',
    'events.export.title',
    'strength.withReason',
  ],
  tr: ['directories.token.label', 'recoveryCodes.fileSite', 'strength.withReason'],
  'zh-Hans': ['recoveryCodes.fileName'],
  ko: ['connections.presets.google.ssoUrl', 'recoveryCodes.fileName', 'strength.withReason'],
  ar: ['team.log.team.loginOptions', 'recoveryCodes.fileName', 'strength.withReason'],
  he: ['team.log.team.loginOptions', 'recoveryCodes.fileName', 'strength.withReason'],
  pt: [
    'strength.withReason',
    'manage.permissions.EDITOR',
    'recoveryCodes.fileSite',
    'team.log.team.loginOptions',
    'manage.nav.menu',
    'team.logFilter.app',
    'manage.nav.teamApps',
    'teamApps.columns.status',
    'directories.token.label',
    'streaming.columns.state',
  ],
  uk: ['strength.withReason'],
};

for (const part of PARTS)
  describe(`locale files${part && ` (${part})`}`, () => {
    const english = locale('en', part);
    const englishKeys = byBaseKey(english);
    /** English's text for a key in any plural form (they share their placeholders). */
    const englishText = (key: string) => english[key] ?? english[`${key.replace(PLURAL, '')}_other`]!;

    for (const language of LANGUAGES) {
      const texts = locale(language, part);

      it(`${language}: every text, in the plural forms of the language, no extra one, none empty`, () => {
        const keys = byBaseKey(texts);
        assert.deepEqual([...keys.keys()].sort(), [...englishKeys.keys()].sort());
        const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
        for (const [key, forms] of keys) {
          if (englishKeys.get(key)!.length === 0)
            assert.deepEqual(forms, [], `${language} ${key}: not a plural`);
          else
            assert.deepEqual([...forms].sort(), [...categories].sort(), `${language} ${key}: plural forms`);
        }
        for (const [key, text] of Object.entries(texts))
          assert.notEqual(text.trim(), '', `${language} ${key}`);
      });

      it(`${language}: i18next placeholders only, the same placeholders and tags as English`, () => {
        const exact = singleNumberCategories(language);
        for (const [key, text] of Object.entries(texts)) {
          assert.deepEqual(badPlaceholders(text), [], `${language} ${key}`);
          assert.deepEqual(
            markupOf(key, text, exact),
            markupOf(key, englishText(key), exact),
            `${language} ${key}`,
          );
        }
      });

      if (language !== 'en') {
        it(`${language}: translated (no value left in English)`, () => {
          const allowed = [...NAMES, ...(SAME_AS_ENGLISH[language] ?? [])];
          const untranslated = Object.keys(texts).filter(
            (key) => texts[key] === english[key] && !allowed.includes(key),
          );
          assert.deepEqual(untranslated, []);
        });
      }
    }
  });

describe("the server's texts", () => {
  const english = flatten(TEXTS.en);
  for (const language of LANGUAGES) {
    it(`${language}: the same texts as English, no extra one (the type refuses a missing one)`, () => {
      assert.deepEqual(Object.keys(flatten(TEXTS[language])).sort(), Object.keys(english).sort());
    });

    it(`${language}: i18next placeholders only, the same ones as English`, () => {
      for (const [key, text] of Object.entries(flatten(TEXTS[language]))) {
        assert.deepEqual(badPlaceholders(text), [], `${language} ${key}`);
        assert.deepEqual(markup(text), markup(english[key]!), `${language} ${key}`);
      }
    });
  }
});
