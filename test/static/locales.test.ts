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
        for (const [key, text] of Object.entries(texts)) {
          assert.deepEqual(badPlaceholders(text), [], `${language} ${key}`);
          assert.deepEqual(markup(text), markup(englishText(key)), `${language} ${key}`);
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
    it(`${language}: i18next placeholders only, the same ones as English`, () => {
      for (const [key, text] of Object.entries(flatten(TEXTS[language]))) {
        assert.deepEqual(badPlaceholders(text), [], `${language} ${key}`);
        assert.deepEqual(markup(text), markup(english[key]!), `${language} ${key}`);
      }
    });
  }
});
