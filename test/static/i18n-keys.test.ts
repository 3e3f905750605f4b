/**
 * The locale files against the source: every key the code asks for exists in English, and every English
 * key is asked for somewhere (no dead texts to translate). A key counts as asked for when it appears in
 * the source as a string, or under a prefix the code builds keys from (`t(\`login.errors.${code}\`)`).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { PARTS } from './locale-files';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

function flatten(value: unknown, prefix = ''): string[] {
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
    child && typeof child === 'object' ? flatten(child, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

const sources = readdirSync(SRC, { recursive: true })
  .map(String)
  .filter((name) => /\.(ts|tsx)$/.test(name))
  .map((name) => readFileSync(join(SRC, name), 'utf8'));
const code = sources.join('\n');
const english = PARTS.flatMap((part) =>
  flatten(JSON.parse(readFileSync(join(SRC, 'i18n/locales', part, 'en.json'), 'utf8'))),
);
const PLURAL = /_(zero|one|two|few|many|other)$/;

describe('translation keys', () => {
  it('every English key is used by the code', () => {
    // `t(`prefix.${…}`)`, or a message kept to be said later: `[`prefix.${…}`, values]` (i18n/said.ts).
    const dynamicPrefixes = [...code.matchAll(/(?:\bt\(|\[)\s*`([a-zA-Z.]+)\$\{/g)].map((m) => m[1]!);
    const unused = english.filter((key) => {
      const base = key.replace(PLURAL, '');
      return (
        !code.includes(`'${base}'`) &&
        !code.includes(`"${base}"`) &&
        !dynamicPrefixes.some((prefix) => base.startsWith(prefix))
      );
    });
    assert.deepEqual(unused, []);
  });

  it('every key the code asks for exists', () => {
    const known = new Set(english.map((key) => key.replace(PLURAL, '')));
    // `t('key')`, `<Trans i18nKey="key">` for a sentence with markup in it, and a message kept to be
    // said later (i18n/said.ts): `['key']`, `['key', { values }]`.
    const asked = [
      ...code.matchAll(
        /\bt\(\s*'([^']+)'|\bi18nKey=["']([^"']+)["']|\[\s*'([a-zA-Z]+(?:\.\w+)+)'\s*(?:\]|,\s*\{)/g,
      ),
    ].map((m) => (m[1] ?? m[2] ?? m[3])!);
    assert.ok(asked.length > 50, `found the t() calls (${asked.length})`);
    assert.deepEqual(
      asked.filter((key) => !known.has(key)),
      [],
    );
  });
});
