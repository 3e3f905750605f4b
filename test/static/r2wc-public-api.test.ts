/**
 * The elements use r2wc through its public API only: `r2wc(Component, { shadow, props })` from
 * @r2wc/react-to-web-component. Its class's symbol-keyed members (`Symbol.for('r2wc.render')`,
 * `r2wc.props`, `r2wc.context`…) and @r2wc/core are its internals: an update of either may change them
 * without notice.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

const sources = readdirSync(SRC, { recursive: true })
  .map(String)
  .filter((name) => /\.(ts|tsx)$/.test(name))
  .map((name) => ({ name, text: readFileSync(join(SRC, name), 'utf8') }));

describe('r2wc', () => {
  it('is used without its internals: no r2wc.* symbol and no import of @r2wc/core in src/', () => {
    assert.ok(
      sources.some(({ name }) => name === join('elements', 'define.tsx')),
      'src/elements/define.tsx is read',
    );
    const internal = sources
      .filter(({ text }) => /['"`]r2wc\.\w+['"`]/.test(text) || /from\s+['"]@r2wc\/core['"]/.test(text))
      .map(({ name }) => name);
    assert.deepEqual(internal, []);
  });
});
