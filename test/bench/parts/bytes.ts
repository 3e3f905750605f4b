/** The `bytes` part: every file of dist/ and the floors, on disk (raw, gzip, brotli). */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { chunkKind, kb, scripts, sizeOf, sum, type Size } from '../bytes';
import { fixed, heading, table, verdict } from '../output';
import { BUDGETS, DIST, FLOOR, ROOT } from '../settings';

function buildFloors(): { login: Size; minimal: Size; header: Size } {
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/rollup/dist/bin/rollup'),
      '-c',
      'test/bench/floor/rollup.floor.mjs',
      '--silent',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  const of = (dir: string, name: string) =>
    sum(
      scripts(join(FLOOR, dir)).map((path) => sizeOf(path, FLOOR)),
      name,
    );
  return {
    login: of('login', 'React-only login floor'),
    minimal: of('minimal', 'minimal React-only login floor'),
    header: of('header', 'React-only header floor'),
  };
}

/**
 * What one visitor can load at most: the entry, every code chunk, and one language with its text parts
 * (the largest of each). A page never loads two languages' texts;
 * see docs/decisions/everything-budget.md.
 */
function oneVisitor(entry: Size, lazy: Array<Size & { kind: string }>): Size {
  const texts = lazy.filter((f) => /^(language|texts: \w+) \(/.test(f.kind));
  const largest = [...new Set(texts.map((f) => f.kind.replace(/ \(.*\)$/, '')))].map(
    (kind) => texts.filter((f) => f.kind.startsWith(`${kind} (`)).sort((a, b) => b.gzip - a.gzip)[0]!,
  );
  const code = lazy.filter((f) => !texts.includes(f));
  return sum([entry, ...code, ...largest], 'one visitor (entry + every code chunk + one language)');
}

export function bytes() {
  const floors = buildFloors();
  const files = scripts(DIST).map((path) => sizeOf(path, DIST));
  const esm = files.filter((f) => f.file !== 'acct-elements.iife.js');
  const entry = esm.find((f) => f.file === 'acct-elements.js');
  if (!entry) throw new Error('dist/acct-elements.js is missing: run npm run build');
  const everything = sum(esm, 'everything (ESM entry + every chunk)');
  const lazy = esm
    .filter((f) => f.file.startsWith('chunks/'))
    .map((f) => ({ ...f, kind: chunkKind(f.file) }));
  const visitor = oneVisitor(entry, lazy);
  const kinds = [...new Set(lazy.map((f) => f.kind.replace(/ \(.*\)$/, '')))].map((kind) => ({
    ...sum(
      lazy.filter((f) => f.kind.replace(/ \(.*\)$/, '') === kind),
      kind,
    ),
    kind,
  }));
  heading('Bundle bytes (files on disk)');
  const row = (s: Size, note: string) => [
    s.file,
    kb(s.raw),
    kb(s.gzip),
    kb(s.brotli),
    fixed(s.gzip / floors.login.gzip, 2),
    note,
  ];
  table(
    ['file', 'raw', 'gzip', 'brotli', 'gzip ÷ login floor', 'what'],
    [
      ...files
        .filter((f) => !f.file.startsWith('chunks/'))
        .map((f) => row(f, f.file.includes('iife') ? 'classic script (all in one)' : 'ESM entry')),
      ...lazy.map((f) => row(f, `lazy: ${f.kind}`)),
      ...kinds.map((k) => row({ ...k, file: `${k.kind}: all chunks` }, 'lazy, summed by kind')),
      row(
        everything,
        `budget ${kb(BUDGETS.everythingGzip)} gzip: ${verdict(everything.gzip <= BUDGETS.everythingGzip)}`,
      ),
      row(visitor, `what one visitor can load at most: ${verdict(visitor.gzip <= BUDGETS.everythingGzip)}`),
      row(floors.login, 'the floor of <acct-login>: the same form, React alone'),
      row(floors.minimal, 'reference: the floor of earlier runs (a smaller form, unstyled)'),
      row(floors.header, 'the floor of <acct-header>'),
    ],
    [false, true, true, true, true, false],
  );
  return { files, lazy, lazyByKind: kinds, everything, visitor, floors };
}
