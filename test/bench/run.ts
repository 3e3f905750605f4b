/**
 * `npm run bench`: measurements in one run, reported as tables on stdout and as JSON in
 * test-results/bench/report.json. Figures are ratios to a React-only floor (built and served the same
 * way) or to the password-hash bound, because this machine is noisy. Nothing here fails a build: the
 * budgets of design.md §5 are reported, not enforced.
 *
 * `npm run bench -- bytes` (or `time`, `login`) runs one part.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { kb, scripts, sizeOf, sum, type Size } from './bytes';
import { freePort } from '../support/test-server';
import { startPageServer, startServerProcess } from './harness';
import { hashBound, loginLoad, type LoginLoad } from './login-load';
import { timeToForm, type TimeResult } from './time-to-form';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'test-results', 'bench');
const DIST = join(ROOT, 'dist');
const FLOOR = join(OUT, 'floor');

/** design.md §5 budgets. */
const BUDGETS = { loginPageGzip: 100 * 1024, everythingGzip: 160 * 1024, timeRatio: 1.2, loginRatio: 0.8 };

function buildFloor(): Size {
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
  return sum(
    scripts(FLOOR).map((path) => sizeOf(path, OUT)),
    'React-only floor',
  );
}

function bytes() {
  const floor = buildFloor();
  const files = scripts(DIST).map((path) => sizeOf(path, DIST));
  const esm = files.filter((f) => f.file !== 'acct-elements.iife.js');
  const entry = esm.find((f) => f.file === 'acct-elements.js');
  if (!entry) throw new Error('dist/acct-elements.js is missing: run npm run build');
  const english = esm.find((f) => /^chunks\/en-/.test(f.file));
  const loginPage = sum([entry, ...(english ? [english] : [])], 'login-only page (entry + en)');
  const everything = sum(esm, 'everything (ESM entry + every chunk)');
  const within = (size: Size, budget: number) =>
    `budget ${kb(budget)} gzip: ${size.gzip <= budget ? 'within' : 'OVER'}`;
  const rows = [
    ...files.map((f) => ({
      ...f,
      note: f.file.startsWith('chunks/')
        ? 'lazy chunk'
        : f.file.includes('iife')
          ? 'classic script'
          : 'ESM entry',
    })),
    { ...loginPage, note: within(loginPage, BUDGETS.loginPageGzip) },
    { ...everything, note: within(everything, BUDGETS.everythingGzip) },
    { ...floor, note: 'the floor' },
  ];
  console.log('\n## Bundle bytes\n');
  console.log('| file | raw | gzip | brotli | gzip ÷ floor | note |\n|---|---:|---:|---:|---:|---|');
  for (const r of rows) {
    console.log(
      `| ${r.file} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.brotli)} | ${(r.gzip / floor.gzip).toFixed(2)} | ${r.note} |`,
    );
  }
  return { files, loginPage, everything, floor, budgets: BUDGETS };
}

async function time(issuer: string, pagePort: number) {
  const pages = await startPageServer(issuer, FLOOR, pagePort);
  try {
    const results = await timeToForm({
      'acct-login': `${pages.url}/login-only.html`,
      floor: `${pages.url}/floor.html`,
    });
    console.log('\n## Time to a visible password field (ms since navigation, 7 cold loads)\n');
    console.log(
      '| page | CPU | median | min | max | ÷ floor (median) | JS heap |\n|---|---|---:|---:|---:|---:|---:|',
    );
    const floorOf = (throttle: number) => results.find((r) => r.page === 'floor' && r.throttle === throttle)!;
    const rows = results.map((r: TimeResult) => ({
      ...r,
      ratio: r.ms.median / floorOf(r.throttle).ms.median,
    }));
    for (const r of rows) {
      const verdict =
        r.page === 'floor'
          ? ''
          : ` (budget ${BUDGETS.timeRatio}: ${r.ratio <= BUDGETS.timeRatio ? 'within' : 'OVER'})`;
      console.log(
        `| ${r.page} | ${r.throttle}× | ${r.ms.median.toFixed(0)} | ${r.ms.min.toFixed(0)} | ${r.ms.max.toFixed(0)} | ${r.ratio.toFixed(2)}${verdict} | ${kb(r.heapBytes)} |`,
      );
    }
    return rows;
  } finally {
    await pages.close();
  }
}

async function login(url: string): Promise<LoginLoad> {
  const bound = await hashBound();
  const load = await loginLoad(url, bound);
  console.log('\n## Sign-in throughput against the password-hash bound\n');
  console.log(
    '| hashes/s (bound) | logins/s | ratio | p50 ms | p99 ms | 2xx | non-2xx | 5xx | errors |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  const verdict = `${load.ratio.toFixed(2)} (budget ${BUDGETS.loginRatio}: ${load.ratio >= BUDGETS.loginRatio ? 'within' : 'UNDER'})`;
  console.log(
    `| ${load.hashesPerSecond.toFixed(2)} | ${load.loginsPerSecond.toFixed(2)} | ${verdict} | ${load.p50} | ${load.p99} | ${load.ok} | ${load.non2xx} | ${load.serverErrors} | ${load.errors} |`,
  );
  return load;
}

async function main(): Promise<void> {
  const parts = new Set(process.argv.slice(2));
  const all = parts.size === 0;
  mkdirSync(OUT, { recursive: true });
  const report: Record<string, unknown> = { date: new Date().toISOString(), node: process.version };
  if (all || parts.has('bytes') || parts.has('time')) report.bytes = bytes();
  if (all || parts.has('time') || parts.has('login')) {
    // The bench pages are another origin (like a partner site), allowed by the server's CORS list.
    const pagePort = await freePort();
    const server = await startServerProcess({
      LOGIN_ADDRESS_LIMIT: '1000000',
      CORS_ORIGINS: `http://localhost:${pagePort}`,
    });
    try {
      if (all || parts.has('time')) report.timeToForm = await time(server.url, pagePort);
      if (all || parts.has('login')) report.login = await login(server.url);
    } finally {
      await server.stop();
    }
  }
  writeFileSync(join(OUT, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nJSON: ${join('test-results', 'bench', 'report.json')}`);
}

await main();
