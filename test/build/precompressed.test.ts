/**
 * The pre-compressed copies the server sends by `Accept-Encoding` (run after `npm run build`): every
 * script of the bundle, and custom-elements.json, has a `.br` and a `.gz` beside it that decode to
 * exactly its bytes — a stale or missing copy would send browsers other code than the file.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DIST, ENTRY } from './graph';

/** The files served from /dist/ that must have compressed copies. */
function servedText(): string[] {
  return readdirSync(DIST, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.js') || name === 'custom-elements.json')
    .sort();
}

describe('the pre-compressed copies in dist/', () => {
  it('exist for every script in dist/ and dist/chunks/, and for custom-elements.json', () => {
    assert.ok(existsSync(ENTRY), 'dist/acct-elements.js is missing: run npm run build first');
    const files = servedText();
    for (const name of ['acct-elements.js', 'acct-elements.iife.js', 'custom-elements.json']) {
      assert.ok(files.includes(name), `${name} is missing`);
    }
    assert.ok(
      files.some((name) => name.startsWith('chunks')),
      'no chunk in dist/chunks',
    );
    const missing = files.flatMap((name) =>
      ['.br', '.gz'].map((ext) => name + ext).filter((copy) => !existsSync(join(DIST, copy))),
    );
    assert.deepEqual(missing, []);
  });

  it('decode to exactly the file, and are smaller than it (brotli smaller than gzip for the entries)', () => {
    for (const name of servedText()) {
      const raw = readFileSync(join(DIST, name));
      const br = readFileSync(join(DIST, `${name}.br`));
      const gz = readFileSync(join(DIST, `${name}.gz`));
      assert.ok(brotliDecompressSync(br).equals(raw), `${name}.br decodes to another content`);
      assert.ok(gunzipSync(gz).equals(raw), `${name}.gz decodes to another content`);
      // Tiny chunks gain little (a few header bytes either way); the large files must shrink to under half.
      if (raw.length > 4096) {
        const most = raw.length * 0.5;
        assert.ok(br.length < most, `${name}.br: ${br.length} of ${raw.length} bytes`);
        assert.ok(gz.length < most, `${name}.gz: ${gz.length} of ${raw.length} bytes`);
      }
    }
    for (const name of ['acct-elements.js', 'acct-elements.iife.js']) {
      const br = readFileSync(join(DIST, `${name}.br`)).length;
      const gz = readFileSync(join(DIST, `${name}.gz`)).length;
      assert.ok(br < gz, `${name}: brotli ${br} bytes, gzip ${gz}`);
    }
  });
});
