/**
 * Runs the node:test files under a folder (Node 20's --test takes no globs): every *.test.ts.
 * - One at a time (`--test-concurrency` absent or 1): one `node --test` for all of them.
 * - N at a time (`--test-concurrency=N`: the server files, each on a database of its own, and the
 *   end-to-end files, each with its own server on free ports, run two at a time on two cores): this
 *   script keeps N processes busy from a queue in its own order, the longest files first. `node --test`
 *   sorts the files it is given, so handing it the list would start the longest file last.
 * On Node 24 the server files run in groups, each group's files in one process
 * (`--test-isolation=none`): loading the server and tsx once per file cost about 3.5 s of CPU each,
 * a third of the suite (docs/decisions/server-test-groups.md). The end-to-end files keep a process
 * each: one of them changes the server's texts in place.
 * A process's output is printed when it ends, with its time, so files do not interleave.
 * `--retry-failed` (the end-to-end files): a file that fails runs once more at the end of the queue. It
 * fails the run only if it fails again; if it then passes, its first failures are printed as flaky and
 * written to TEST_FLAKY, to be fixed like any failure (docs/decisions/e2e-retry.md).
 * Usage: node scripts/node-tests.mjs test/server [more node --test flags]; files instead of the folder
 * run just those files.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RETRY = '--retry-failed';
const retry = process.argv.includes(RETRY);
const args = process.argv.slice(2).filter((arg) => arg !== RETRY);
const paths = args.filter((arg) => !arg.startsWith('--'));
const flags = args.filter((arg) => arg.startsWith('--'));
/** The files that take longest, longest first: the screen sweeps walk every screen in every state. */
const LONGEST = [/^screens-/, /^attack-redirect/];
const rank = (name) => {
  const index = LONGEST.findIndex((pattern) => pattern.test(name));
  return index === -1 ? LONGEST.length : index;
};
const files = paths.flatMap((path) =>
  statSync(path).isFile()
    ? [path]
    : readdirSync(path, { recursive: true })
        .map(String)
        .filter((name) => name.endsWith('.test.ts'))
        .sort()
        .sort((a, b) => rank(a) - rank(b))
        .map((name) => join(path, name)),
);
if (files.length === 0) {
  console.error(`no *.test.ts files under ${paths.join(', ')}`);
  process.exit(1);
}
/** TEST_FAILURES's reporter flags, writing to `destination`, beside the chosen reporter to stdout. */
const reportersTo = (destination) => [
  flags.find((flag) => flag.startsWith('--test-reporter=')) ?? '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${join(import.meta.dirname, 'failure-reporter.mjs')}`,
  `--test-reporter-destination=${destination}`,
];
// With TEST_FAILURES=<file>, the failures are also written there in short (scripts/failure-reporter.mjs);
// node then wants a destination for each reporter.
const otherFlags = process.env.TEST_FAILURES
  ? flags.filter((flag) => !flag.startsWith('--test-reporter'))
  : flags;

const concurrency = Number(flags.find((flag) => flag.startsWith('--test-concurrency='))?.split('=')[1] ?? 1);
const nodeFlags = otherFlags.filter((flag) => !flag.startsWith('--test-concurrency'));

if (concurrency <= 1 || files.length === 1) {
  const reporters = process.env.TEST_FAILURES ? reportersTo(process.env.TEST_FAILURES) : [];
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=1', ...nodeFlags, ...reporters, ...files],
    { stdio: 'inherit' },
  );
  process.exit(result.status ?? 1);
}

/** The folders whose files may share a process: each file has its own server, database and ports. */
const GROUPED = ['test/server'];
const FILES_PER_GROUP = 8;
const node24 = Number(process.versions.node.split('.')[0]) >= 24;
const grouped =
  node24 &&
  paths.length === 1 &&
  GROUPED.includes(paths[0].replace(/\/+$/, '')) &&
  files.length > FILES_PER_GROUP;
// Groups of about FILES_PER_GROUP files, the files dealt out in turn (the long ones first): more groups
// than processes, so that one long group does not end alone. Otherwise each file is a unit of its own.
const groupCount = grouped ? Math.ceil(files.length / FILES_PER_GROUP) : files.length;
const groups = Array.from({ length: groupCount }, (_, g) => files.filter((_, i) => i % groupCount === g));
// Node 20 has no --test-isolation: its runner starts a process per file under the one we start.
const isolation = node24 ? ['--test-isolation=none'] : [];
// Each unit's failures in a file of its own: node empties a reporter's destination as it opens it.
const failuresDir = process.env.TEST_FAILURES ? mkdtempSync(join(tmpdir(), 'test-failures-')) : null;

/** The failures file of a unit's run: `attempt` 0 is the first run, 1 the run again. */
const failuresOf = (index, attempt) => join(failuresDir, `${index}-${attempt}.txt`);

function runGroup(group, index, attempt = 0) {
  const reporters = failuresDir ? reportersTo(failuresOf(index, attempt)) : [];
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', ...isolation, ...nodeFlags, ...reporters, ...group],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const started = performance.now();
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const what = `${grouped ? 'group' : 'file'} ${index + 1} of ${groups.length}${attempt ? ', run again' : ''}`;
      const outcome = code === 0 ? '' : ' FAILED';
      process.stdout.write(`--- ${what} (${seconds} s)${outcome}: ${group.join(' ')}\n${output}`);
      done(code === 0);
    });
  });
}

/** Each unit's outcome: 'passed', 'flaky' (failed, then passed when run again) or 'failed'. */
const outcomes = new Map();
const queue = groups.map((group, index) => async () => {
  if (await runGroup(group, index)) return outcomes.set(index, 'passed');
  if (!retry) return outcomes.set(index, 'failed');
  // Run again once the files still waiting have started: at the end, beside as few others as possible.
  queue.push(async () => outcomes.set(index, (await runGroup(group, index, 1)) ? 'flaky' : 'failed'));
});
await Promise.all(
  Array.from({ length: Math.max(1, concurrency) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await next();
  }),
);
const indexes = (outcome) => [...outcomes].filter(([, value]) => value === outcome).map(([index]) => index);
const failed = indexes('failed');
const flaky = indexes('flaky');
if (failuresDir) {
  const read = (index, attempt) => {
    try {
      return readFileSync(failuresOf(index, attempt), 'utf8');
    } catch {
      return '';
    }
  };
  const sorted = (list) => list.sort((a, b) => a - b);
  for (const index of sorted(failed))
    appendFileSync(process.env.TEST_FAILURES, read(index, 0) + read(index, 1));
  const flakyText = sorted(flaky)
    .map((index) => read(index, 0))
    .join('');
  if (flakyText) {
    console.log(`--- flaky: failed, then passed when run again\n${flakyText}`);
    if (process.env.TEST_FLAKY) appendFileSync(process.env.TEST_FLAKY, flakyText);
  }
  rmSync(failuresDir, { recursive: true, force: true });
}
console.log(
  `--- ${files.length} files${grouped ? ` in ${groups.length} groups` : ''}: ${failed.length ? `${failed.length} failed` : 'all passed'}${flaky.length ? `, flaky: ${flaky.map((index) => groups[index].join(' ')).join(', ')}` : ''}`,
);
process.exit(failed.length ? 1 : 0);
