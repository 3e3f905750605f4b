/**
 * Runs the node:test files under a folder (Node 20's --test takes no globs): every *.test.ts, each file
 * in its own process, one at a time (the end-to-end files each start servers and a browser).
 * Usage: node scripts/node-tests.mjs test/server [more node --test flags]
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const [folder, ...flags] = process.argv.slice(2);
const files = readdirSync(folder, { recursive: true })
  .map(String)
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => join(folder, name));
if (files.length === 0) {
  console.error(`no *.test.ts files under ${folder}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', ...flags, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
