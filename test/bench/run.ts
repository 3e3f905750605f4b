/**
 * `npm run bench`: measurements in one run, reported as a table on stdout and as JSON in
 * test-results/bench/report.json. Figures are ratios to a React-only floor built with the same settings,
 * because this machine is noisy. Nothing here fails a build: the budgets are reported, not enforced.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { kb, scripts, sizeOf, sum, type Size } from './bytes';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'test-results', 'bench');
const DIST = join(ROOT, 'dist');

/** design §5 budgets (gzip bytes of JavaScript). */
const BUDGETS = { loginPage: 100 * 1024, everything: 160 * 1024 };

function buildFloor(): Size {
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/rollup/dist/bin/rollup'),
      '-c',
      'test/bench/floor/rollup.floor.mjs',
      '--silent',
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  return sum(
    scripts(join(OUT, 'floor')).map((path) => sizeOf(path, OUT)),
    'React-only floor',
  );
}

function table(rows: Array<Size & { note?: string }>, floor: Size): string {
  const header = '| file | raw | gzip | brotli | gzip ÷ floor | note |\n|---|---:|---:|---:|---:|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.file} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.brotli)} | ${(r.gzip / floor.gzip).toFixed(2)} | ${r.note ?? ''} |`,
  );
  return [header, ...lines].join('\n');
}

function main(): void {
  mkdirSync(OUT, { recursive: true });
  const floor = buildFloor();
  const files = scripts(DIST).map((path) => sizeOf(path, DIST));
  const esm = files.filter((f) => f.file !== 'acct-elements.iife.js');
  const entry = esm.find((f) => f.file === 'acct-elements.js');
  if (!entry) throw new Error('dist/acct-elements.js is missing: run npm run build');
  const english = esm.find((f) => /^chunks\/en-/.test(f.file));
  const loginPage = sum([entry, ...(english ? [english] : [])], 'login-only page (entry + en)');
  const everything = sum(esm, 'everything (ESM entry + every chunk)');
  const rows = [
    ...files.map((f) => ({
      ...f,
      note: f.file.startsWith('chunks/')
        ? 'lazy chunk'
        : f.file.includes('iife')
          ? 'classic script'
          : 'ESM entry',
    })),
    {
      ...loginPage,
      note: `budget ${kb(BUDGETS.loginPage)} gzip: ${loginPage.gzip <= BUDGETS.loginPage ? 'within' : 'OVER'}`,
    },
    {
      ...everything,
      note: `budget ${kb(BUDGETS.everything)} gzip: ${everything.gzip <= BUDGETS.everything ? 'within' : 'OVER'}`,
    },
    { ...floor, note: 'the floor' },
  ];
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    bytes: { files, loginPage, everything, floor, budgets: BUDGETS },
  };
  writeFileSync(join(OUT, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log('\n## Bundle bytes\n');
  console.log(table(rows, floor));
  console.log(`\nJSON: ${join('test-results', 'bench', 'report.json')}`);
}

main();
