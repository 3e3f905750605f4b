import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');

describe('docs/configuration.md, the configuration table', () => {
  it('lists exactly the variables config.ts reads', () => {
    const source = readFileSync(join(ROOT, 'demo/server/config.ts'), 'utf8');
    const read = new Set(
      [...source.matchAll(/\b(?:value|int|url|bool)\(\s*'([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]!),
    );
    assert.ok(read.size >= 20, `found ${read.size} variables in config.ts`);
    const doc = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    const table = doc.slice(0, doc.indexOf('\n## '));
    const documented = new Set([...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)`/gm)].map((m) => m[1]!));
    assert.deepEqual([...documented].sort(), [...read].sort());
    assert.doesNotMatch(table, /used once password recovery lands/);
  });
});
