/**
 * `npm test`, part by part, each timed: Chromium, xmlsec1 and SimpleSAMLphp first (scripts/system-deps.mjs
 * installs them if missing),
 * then the type check, lint and static checks side by side with the build (two cores; the checks only
 * read the sources and the build writes only dist/), then the build's checks, the unit, server and
 * end-to-end tests. Stops after the first part that fails. The output of parts run side by side is
 * printed as each ends, so it does not interleave; the durations come last. With PART_TIMES=<file>
 * each part also appends `name<TAB>seconds` to it (.ci/run prints them with its own parts).
 * `npm test -- build dist` runs only the parts named.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

/** Steps run one after another; the parts of a step side by side. */
const STEPS = [
  [
    {
      name: 'chromium',
      commands: [['node', 'scripts/system-deps.mjs', 'chromium', 'xmlsec1', 'simplesamlphp']],
    },
  ],
  [
    {
      name: 'typecheck+lint+static',
      commands: [
        ['npm', 'run', 'typecheck'],
        ['npm', 'run', 'lint'],
        ['npm', 'run', 'test:static'],
      ],
    },
    { name: 'build', commands: [['npm', 'run', 'build']] },
  ],
  [{ name: 'dist', commands: [['npm', 'run', 'test:dist']] }],
  [{ name: 'unit', commands: [['npm', 'run', 'test:unit']] }],
  [{ name: 'server', commands: [['npm', 'run', 'test:server']] }],
  [{ name: 'e2e', commands: [['npm', 'run', 'test:e2e']] }],
];

function runCommand([command, ...args], buffered) {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (buffered) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('error', (error) => resolveRun({ ok: false, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolveRun({ ok: code === 0, output }));
  });
}

/** A part's commands in order, up to the first that fails. */
async function runPart(part, buffered) {
  const started = performance.now();
  let output = '';
  let ok = true;
  for (const command of part.commands) {
    if (!buffered) console.log(`--- ${part.name}: ${command.join(' ')}`);
    const result = await runCommand(command, buffered);
    output += buffered ? `--- ${part.name}: ${command.join(' ')}\n${result.output}` : '';
    if (!(ok = result.ok)) break;
  }
  const seconds = (performance.now() - started) / 1000;
  if (buffered) process.stdout.write(output);
  return { name: part.name, ok, seconds };
}

const chosen = process.argv.slice(2);
const names = STEPS.flat().map((part) => part.name);
const unknown = chosen.filter((name) => !names.includes(name));
if (unknown.length) {
  console.error(`unknown part: ${unknown.join(', ')} (the parts: ${names.join(', ')})`);
  process.exit(1);
}
const steps = STEPS.map((step) => step.filter((part) => !chosen.length || chosen.includes(part.name))).filter(
  (step) => step.length,
);

const done = [];
for (const step of steps) {
  const results = await Promise.all(step.map((part) => runPart(part, step.length > 1)));
  for (const result of results) {
    done.push(result);
    if (process.env.PART_TIMES) {
      const line = `${result.name}\t${result.seconds.toFixed(3)}${result.ok ? '' : '\tFAILED'}\n`;
      appendFileSync(process.env.PART_TIMES, line);
    }
  }
  if (results.some((result) => !result.ok)) break;
}

console.log('\n--- npm test: durations');
for (const { name, ok, seconds } of done) {
  console.log(`${name.padEnd(24)}${seconds.toFixed(1).padStart(8)} s${ok ? '' : '  FAILED'}`);
}
process.exit(done.every((result) => result.ok) && done.length === steps.flat().length ? 0 : 1);
