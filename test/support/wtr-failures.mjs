/**
 * A web-test-runner reporter that writes each failing unit test in a few lines — file, test, what failed —
 * to the file TEST_FAILURES names, as scripts/failure-reporter.mjs does for node:test: .ci/run prints that
 * file last, where whoever reads only the tail of a long log sees it. Without TEST_FAILURES it does nothing.
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

const MESSAGE_LINES = 6;

function short(message) {
  return String(message ?? '')
    .split('\n')
    .filter((line) => line.trim())
    .slice(0, MESSAGE_LINES)
    .map((line) => `    ${line.slice(0, 200)}`)
    .join('\n');
}

/** The failing tests of a suite and its suites, each named by its path of suites. */
function* failed(suite, path = []) {
  for (const test of suite?.tests ?? []) {
    if (!test.passed && !test.skipped) yield { name: [...path, test.name].join(' › '), error: test.error };
  }
  for (const inner of suite?.suites ?? []) yield* failed(inner, [...path, inner.name]);
}

export function failuresReporter(file = process.env.TEST_FAILURES) {
  return {
    reportTestFileResults({ testFile, sessionsForTestFile }) {
      if (!file) return;
      const where = relative(process.cwd(), testFile);
      for (const session of sessionsForTestFile) {
        if (session.passed) continue;
        let lines = '';
        // A file that failed to load or run (a syntax error, a timeout) has errors and no failing test.
        for (const error of session.errors ?? []) lines += `${where}\n${short(error.message ?? error)}\n`;
        for (const { name, error } of failed(session.testResults)) {
          lines += `${where}: ${name}\n${short(error?.message ?? 'failed')}\n`;
        }
        if (lines) appendFileSync(file, lines);
      }
    },
  };
}
