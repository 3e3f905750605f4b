/**
 * The bundle at `/dist/`: the build's pre-compressed copies sent by `Accept-Encoding`, content-hashed
 * chunks cached for good, everything else revalidated. A folder laid out like the build's (its `.br` and
 * `.gz` made here), so these tests need no build.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../support/test-server';

const CHUNK = 'chunks/en-DuXThbDr.js';
const FILES: Record<string, string> = {
  'acct-elements.js': `import('./${CHUNK}');\n`.repeat(200),
  'acct-elements.iife.js': 'var AcctElements=(function(){return {}})();\n'.repeat(200),
  'acct-elements.js.map': JSON.stringify({ version: 3, mappings: 'AAAA;'.repeat(200) }),
  'custom-elements.json': JSON.stringify({ schemaVersion: '1.0.0', modules: [] }),
  [CHUNK]: 'export default {"common":{"loading":"Loading…"}};\n'.repeat(100),
  [`${CHUNK}.map`]: JSON.stringify({ version: 3, mappings: '' }),
};
const ORIGIN = 'https://suite.example.test';
const IMMUTABLE = 'public, max-age=31536000, immutable';

let t: TestApp;
let dist: string;
before(async () => {
  dist = mkdtempSync(join(tmpdir(), 'acct-dist-'));
  for (const [name, text] of Object.entries(FILES)) {
    const path = join(dist, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    if (name.endsWith('.map')) continue;
    writeFileSync(`${path}.br`, brotliCompressSync(text));
    writeFileSync(`${path}.gz`, gzipSync(text));
  }
  t = await createTestApp({ DIST_DIR: dist, CORS_ORIGINS: ORIGIN });
});
after(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (file: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/dist/${file}`, headers });

/** The body as the browser reads it, by the answer's `Content-Encoding`. */
function decoded(response: Awaited<ReturnType<typeof get>>): string {
  const body = response.rawPayload;
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return gunzipSync(body).toString();
  assert.equal(encoding, undefined, `unexpected Content-Encoding ${String(encoding)}`);
  return body.toString();
}

function assertVaries(response: Awaited<ReturnType<typeof get>>): void {
  const vary = String(response.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);
  assert.ok(vary.includes('accept-encoding'), `Vary: ${String(response.headers.vary)}`);
}

describe('the bundle at /dist/', () => {
  it('sends a chunk as brotli when asked, gzip when only gzip is accepted, as it is otherwise', async () => {
    const cases: Array<[string | undefined, string | undefined]> = [
      ['gzip, deflate, br', 'br'],
      ['br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['gzip', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [accept, encoding] of cases) {
      const response = await get(CHUNK, accept === undefined ? {} : { 'accept-encoding': accept });
      const label = `Accept-Encoding: ${accept ?? '(none)'}`;
      assert.equal(response.statusCode, 200, label);
      assert.equal(response.headers['content-encoding'], encoding, label);
      assert.equal(response.headers['content-type'], 'application/javascript; charset=utf-8', label);
      assert.equal(Number(response.headers['content-length']), response.rawPayload.length, label);
      assert.equal(decoded(response), FILES[CHUNK], label);
      assertVaries(response);
      assert.equal(response.headers['cache-control'], IMMUTABLE, label);
    }
    // Compressed, the chunk is much smaller on the wire.
    const br = await get(CHUNK, { 'accept-encoding': 'br' });
    assert.ok(br.rawPayload.length < FILES[CHUNK]!.length / 4, `${br.rawPayload.length} bytes`);
  });

  it('sends the entries and custom-elements.json for revalidation, with an ETag that gives a 304', async () => {
    const types: Record<string, string> = {
      'acct-elements.js': 'application/javascript; charset=utf-8',
      'acct-elements.iife.js': 'application/javascript; charset=utf-8',
      'custom-elements.json': 'application/json; charset=utf-8',
    };
    for (const [file, type] of Object.entries(types)) {
      for (const accept of ['br', 'gzip', 'identity']) {
        const label = `${file}, Accept-Encoding: ${accept}`;
        const first = await get(file, { 'accept-encoding': accept });
        assert.equal(first.statusCode, 200, label);
        assert.equal(first.headers['content-encoding'], accept === 'identity' ? undefined : accept, label);
        assert.equal(first.headers['content-type'], type, label);
        assert.equal(decoded(first), FILES[file], label);
        assert.equal(first.headers['cache-control'], 'no-cache', label);
        assert.ok(first.headers['last-modified'], `${label}: Last-Modified`);
        assertVaries(first);
        const etag = first.headers.etag;
        assert.equal(typeof etag, 'string', `${label}: ETag`);

        const again = await get(file, { 'accept-encoding': accept, 'if-none-match': String(etag) });
        assert.equal(again.statusCode, 304, label);
        assert.equal(again.rawPayload.length, 0, label);
        assert.equal(again.headers['cache-control'], 'no-cache', label);
        assert.equal(again.headers.etag, etag, label);

        const stale = await get(file, { 'accept-encoding': accept, 'if-none-match': 'W/"0-0"' });
        assert.equal(stale.statusCode, 200, `${label}: another ETag`);
      }
    }
  });

  it('revalidates source maps, a chunk’s too (its name is the code’s hash, not the map’s)', async () => {
    for (const file of ['acct-elements.js.map', `${CHUNK}.map`]) {
      const response = await get(file, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(response.statusCode, 200, file);
      assert.equal(response.headers['content-encoding'], undefined, `${file}: not pre-compressed`);
      assert.equal(response.headers['cache-control'], 'no-cache', file);
      assert.equal(decoded(response), FILES[file], file);
    }
  });

  it('keeps its CORS headers and caching for an allowed origin (a partner page loads the bundle)', async () => {
    for (const file of ['acct-elements.js', CHUNK]) {
      const response = await get(file, { origin: ORIGIN, 'accept-encoding': 'br' });
      assert.equal(response.statusCode, 200, file);
      assert.equal(response.headers['access-control-allow-origin'], ORIGIN, file);
      assert.equal(response.headers['access-control-allow-credentials'], 'true', file);
      assert.equal(response.headers['content-encoding'], 'br', file);
      assert.notEqual(response.headers['cache-control'], 'no-store', file);
      const vary = String(response.headers.vary).toLowerCase();
      assert.match(vary, /\borigin\b/, file);
      assertVaries(response);
    }
  });
});
