/**
 * The server suite on Node 24 LTS beside the machine's Node 20, without touching the Node 20 install
 * (scripts/node24-runtime.mjs: Node 24 and the SQLite driver it needs, from the npm registry into .cache/).
 * Usage: node scripts/node24.mjs sqlite|postgres [test/server/x.test.ts] [more node --test flags]
 *        node scripts/node24.mjs run <command…>   (e.g. `run npm test`)
 */
import { spawnSync } from 'node:child_process';
import { delimiter, dirname, join, resolve } from 'node:path';
import { node24 } from './node24-runtime.mjs';

const ROOT = resolve(import.meta.dirname, '..');

// `run <command…>`: any command with Node 24 first on the PATH (npm and every node it starts).
if (process.argv[2] === 'run') {
  const runtime = node24();
  const [command, ...args] = process.argv.slice(3);
  console.log(`--- ${runtime.version}: ${[command, ...args].join(' ')}`);
  const PATH = `${dirname(runtime.node)}${delimiter}${process.env.PATH ?? ''}`;
  const ran = spawnSync(command, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...runtime.env, PATH },
  });
  process.exit(ran.status ?? 1);
}

const [database = 'sqlite', ...flags] = process.argv.slice(2);
// A test file first among the flags runs just that file (scripts/node-tests.mjs takes a file too).
const target = flags[0]?.endsWith('.test.ts') ? flags.shift() : 'test/server';
if (!['sqlite', 'postgres'].includes(database)) {
  console.error('usage: node scripts/node24.mjs sqlite|postgres [node --test flags]');
  process.exit(1);
}

const runtime = node24();
// PostgreSQL's binaries, as `npm run test:postgres` installs them when missing.
if (database === 'postgres') {
  const deps = spawnSync(process.execPath, [join(ROOT, 'scripts/system-deps.mjs'), 'postgresql'], {
    stdio: 'inherit',
  });
  if (deps.status !== 0) process.exit(deps.status ?? 1);
}

const script = database === 'postgres' ? 'scripts/postgres.mjs' : 'scripts/node-tests.mjs';
console.log(`--- ${runtime.version}: ${script} ${target}`);
const tests = spawnSync(
  runtime.node,
  [script, target, '--test-concurrency=2', '--test-reporter=spec', ...flags],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...runtime.env } },
);
process.exit(tests.status ?? 1);
