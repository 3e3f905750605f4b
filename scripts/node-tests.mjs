/**
 * Runs the node:test files under a folder (Node 20's --test takes no globs): every *.test.ts, each file
 * in its own process, one at a time unless the flags say `--test-concurrency=N` (the server files, each
 * on a database of its own, and the end-to-end files, each with its own server on free ports, run two
 * at a time: the machine has two cores).
 * Usage: node scripts/node-tests.mjs test/server [more node --test flags]; files instead of the folder
 * run just those files.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const paths = args.filter((arg) => !arg.startsWith('--'));
const flags = args.filter((arg) => arg.startsWith('--'));
/** The files that take minutes (the screen sweeps walk every screen in every state). */
const SLOW = /^(screens-|pseudo-locale|attack-redirect)/;
const files = paths.flatMap((path) =>
  statSync(path).isFile()
    ? [path]
    : readdirSync(path, { recursive: true })
        .map(String)
        .filter((name) => name.endsWith('.test.ts'))
        .sort()
        // The longest files start first, so two at a time do not end with one long file running alone.
        .sort((a, b) => Number(SLOW.test(b)) - Number(SLOW.test(a)))
        .map((name) => join(path, name)),
);
if (files.length === 0) {
  console.error(`no *.test.ts files under ${paths.join(', ')}`);
  process.exit(1);
}
const concurrency = flags.some((flag) => flag.startsWith('--test-concurrency'))
  ? []
  : ['--test-concurrency=1'];
// With TEST_FAILURES=<file>, the failures are also written there in short (scripts/failure-reporter.mjs);
// node then wants a destination for each reporter.
const reporters = process.env.TEST_FAILURES
  ? [
      flags.find((flag) => flag.startsWith('--test-reporter=')) ?? '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${join(import.meta.dirname, 'failure-reporter.mjs')}`,
      `--test-reporter-destination=${process.env.TEST_FAILURES}`,
    ]
  : [];
const otherFlags = reporters.length ? flags.filter((flag) => !flag.startsWith('--test-reporter')) : flags;
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', ...concurrency, ...otherFlags, ...reporters, ...files],
  {
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
