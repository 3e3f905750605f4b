/**
 * A node:test reporter that writes each failing test in a few lines — file, test, what failed — for
 * the end of a long CI log, where whoever reads only its tail sees them (scripts/node-tests.mjs adds it
 * beside the spec reporter when TEST_FAILURES names a file). A suite that failed only because a test
 * inside it did is left out: the test itself is listed.
 */
import { relative } from 'node:path';

const MESSAGE_LINES = 6;

export default async function* failureReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, details, file } = event.data;
    const error = details?.error;
    if (error?.failureType === 'subtestsFailed') continue;
    const message = String(error?.cause?.message ?? error?.message ?? error)
      .split('\n')
      .filter((line) => line.trim())
      .slice(0, MESSAGE_LINES)
      .map((line) => `    ${line.slice(0, 200)}`)
      .join('\n');
    // Where in our code it failed: the first frame outside node and node_modules.
    const cause = error?.cause ?? error;
    const where = String(cause?.stack ?? '')
      .split('\n')
      .find((line) => line.includes(process.cwd()) && !line.includes('node_modules'));
    const at = where ? `\n    ${where.trim().replace(`${process.cwd()}/`, '')}` : '';
    yield `${file ? relative(process.cwd(), file) : '?'}: ${name}\n${message}${at}\n`;
  }
}
