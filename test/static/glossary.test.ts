/**
 * Each language calls a thing by one name (docs/glossary.md): no locale text and no server text uses a
 * variant the glossary says to avoid (docs/glossary.json, variant → the term to use). The screens'
 * search words (`manage.words.*`) are exempt: they list synonyms on purpose, so that a search for the
 * other name still finds the screen.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { TEXTS } from '../../demo/server/mail/texts';
import { LANGUAGES } from '../../src/contract/languages';
import { PARTS, flatten, locale } from './locale-files';

const ROOT = resolve(import.meta.dirname, '..', '..');
const EXEMPT = /^manage\.words\./;

const AVOID = JSON.parse(readFileSync(join(ROOT, 'docs', 'glossary.json'), 'utf8')) as Record<
  string,
  Record<string, string>
>;

/** Every text of a language, by where it is: `admin:users.title`, `server:reset.subject`… */
function texts(language: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of PARTS) {
    for (const [key, text] of Object.entries(locale(language, part))) {
      if (!EXEMPT.test(key)) out[`${part || 'main'}:${key}`] = text;
    }
  }
  for (const [key, text] of Object.entries(flatten(TEXTS[language as keyof typeof TEXTS]))) {
    out[`server:${key}`] = text;
  }
  return out;
}

/** The words a reader sees: placeholders and tag names are code, not copy. */
const words = (text: string) => text.replace(/\{\{[^}]*\}\}/g, '').replace(/<\/?\w+>/g, '');

describe('glossary', () => {
  it('covers every language', () => {
    assert.deepEqual(Object.keys(AVOID).sort(), [...LANGUAGES].sort());
  });

  for (const language of LANGUAGES) {
    it(`${language} uses no variant the glossary avoids`, () => {
      const found: string[] = [];
      for (const [key, text] of Object.entries(texts(language))) {
        const seen = words(text).toLocaleLowerCase(language);
        for (const [variant, term] of Object.entries(AVOID[language] ?? {})) {
          if (seen.includes(variant.toLocaleLowerCase(language)))
            found.push(`${key}: “${variant}” → “${term}”`);
        }
      }
      assert.deepEqual(found, []);
    });
  }
});
