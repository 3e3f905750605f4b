/**
 * The build output: run after `npm run build`. The entry is an ES module, each language and
 * each heavy part (developer tools, QR, manage area) is a chunk loaded only on demand, and the IIFE is
 * one classic script.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import rollupConfig, { onwarn } from '../../rollup.config.mjs';
import {
  CHUNKS,
  chunkFiles,
  chunksWithSource,
  dynamicTargets,
  ENTRY,
  IIFE,
  LANGUAGES,
  LAZY_PARTS,
  languageChunks,
  moduleReferences,
  sourcesOf,
  staticGraph,
} from './graph';

const TAGS = ['acct-portal', 'acct-header', 'acct-login', 'acct-manage', 'acct-token'];
const name = (file: string) => relative(CHUNKS, file);

describe('the ES module entry', () => {
  it('is dist/acct-elements.js, an ES module exporting the five element classes', () => {
    assert.ok(existsSync(ENTRY), 'dist/acct-elements.js is missing: run npm run build first');
    const refs = moduleReferences(ENTRY);
    assert.ok(refs.moduleSyntax.includes('ExportDeclaration'), 'the entry has no export statement');
    const source = readFileSync(ENTRY, 'utf8');
    for (const element of ['Portal', 'Header', 'Login', 'Manage', 'Token']) {
      assert.match(source, new RegExp(`\\bas Acct${element}Element\\b`), `Acct${element}Element export`);
    }
    for (const tag of TAGS) assert.ok(source.includes(`"${tag}"`), `${tag} is defined by the entry`);
  });

  it('has one chunk per language, each loaded on demand and holding that language’s texts', async () => {
    const graph = staticGraph();
    const lazy = dynamicTargets(graph);
    for (const code of LANGUAGES) {
      const chunks = languageChunks(code);
      assert.equal(chunks.length, 1, `chunks for ${code}: ${chunks.map(name).join(', ')}`);
      const chunk = chunks[0]!;
      assert.ok(!graph.has(chunk), `${name(chunk)} is loaded with the entry`);
      assert.ok(lazy.has(chunk), `${name(chunk)} is not imported on demand by the entry`);
      const texts = (await import(pathToFileURL(chunk).href)) as { default: unknown };
      const expected: unknown = JSON.parse(readFileSync(`src/i18n/locales/${code}.json`, 'utf8'));
      assert.deepEqual(texts.default, expected, `${name(chunk)} holds the ${code} texts`);
    }
    // No language rides along with the entry.
    for (const file of graph) {
      const source = readFileSync(file, 'utf8');
      for (const code of LANGUAGES) {
        const { common } = JSON.parse(readFileSync(`src/i18n/locales/${code}.json`, 'utf8')) as {
          common: { failed: string };
        };
        assert.ok(!source.includes(common.failed), `the ${code} texts are loaded with the entry`);
      }
    }
  });

  it("keeps the manage and administration screens' rules out of the sign-in page's stylesheet", () => {
    // Rules only those screens use (screens.css); the chunks that show them add them to the shared sheet.
    const rules = ['.sidebar-toggle{', '.member-facts{', '.token-form{', '.dialog-actions{'];
    const graph = staticGraph();
    for (const file of graph) {
      const source = readFileSync(file, 'utf8');
      for (const rule of rules)
        assert.ok(!source.includes(rule), `${name(file)} (loaded with the entry) has ${rule}`);
    }
    const holders = chunkFiles().filter((chunk) => readFileSync(chunk, 'utf8').includes(rules[0]!));
    assert.equal(holders.length, 1, `chunks with the screens' rules: ${holders.map(name).join(', ')}`);
    assert.ok(!graph.has(holders[0]!), `${name(holders[0]!)} is loaded with the entry`);
  });

  for (const [part, pattern] of Object.entries(LAZY_PARTS)) {
    it(`keeps the ${part} in separate chunks, outside the entry's static import graph`, () => {
      const graph = staticGraph();
      for (const file of graph) {
        const inEntry = sourcesOf(file).filter((source) => pattern.test(source));
        assert.deepEqual(inEntry, [], `${relative(CHUNKS, file)} (loaded with the entry) holds ${part} code`);
      }
      const chunks = chunksWithSource(pattern);
      assert.ok(chunks.length > 0, `no chunk holds the ${part}`);
      const lazy = dynamicTargets(chunkFiles().concat(ENTRY));
      for (const chunk of chunks) {
        assert.ok(!graph.has(chunk), `${name(chunk)} is loaded with the entry`);
        // Loaded on demand: imported with import(), or statically by a chunk that is itself on demand.
        const reachable = [...lazy].some((target) => staticGraph(target).has(chunk));
        assert.ok(reachable, `${name(chunk)} is never loaded`);
      }
    });
  }
});

describe('the classic-script build', () => {
  it('is dist/acct-elements.iife.js: one script with no import or export, defining the elements', () => {
    assert.ok(existsSync(IIFE), 'dist/acct-elements.iife.js is missing: run npm run build first');
    assert.deepEqual(moduleReferences(IIFE).moduleSyntax, []);
    const source = readFileSync(IIFE, 'utf8');
    // A classic script must compile as one: vm.Script refuses import/export statements.
    assert.doesNotThrow(() => new Script(source, { filename: IIFE }));
    assert.match(source, /^var AcctElements=/);
    for (const tag of TAGS) assert.ok(source.includes(`"${tag}"`), `${tag} is defined by the IIFE`);
    // Every language is inlined (no chunk to fetch from a classic script).
    for (const code of LANGUAGES) {
      const texts = JSON.parse(readFileSync(`src/i18n/locales/${code}.json`, 'utf8')) as {
        common: { loading: string };
      };
      assert.ok(source.includes(texts.common.loading), `${code} texts are in the IIFE`);
    }
  });
});

describe('the rollup configuration', () => {
  it('fails the build on any warning', () => {
    assert.equal(rollupConfig.length, 2);
    for (const config of rollupConfig) assert.equal(config.onwarn, onwarn);
    assert.throws(
      () => onwarn({ code: 'CIRCULAR_DEPENDENCY', message: 'a -> b -> a' }),
      /rollup warning \(CIRCULAR_DEPENDENCY\): a -> b -> a/,
    );
  });
});
