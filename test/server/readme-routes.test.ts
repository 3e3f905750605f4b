import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { registeredRoutes } from '../support/test-server';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The rows of the README's route tables: a first cell of `METHOD /path`, as Fastify registers it. */
function documentedRoutes(readme: string): string[] {
  return [...readme.matchAll(/^\|\s*`((?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) [^`]+)`\s*\|/gm)].map(
    (m) => m[1]!,
  );
}

describe('demo/server/README.md route tables', () => {
  it('list every registered route once, and nothing else', async () => {
    const documented = documentedRoutes(readFileSync(join(ROOT, 'demo/server/README.md'), 'utf8'));
    // The default (demo) configuration, so the demo-only routes are registered too.
    const registered = await registeredRoutes();
    assert.ok(registered.length >= 30, `found only ${registered.length} routes`);

    const rows = new Set(documented);
    const twice = documented.filter((row, i) => documented.indexOf(row) !== i);
    const missing = registered.filter((route) => !rows.has(route));
    const unknown = documented.filter((row) => !registered.includes(row));
    const problems = [
      ...missing.map((route) => `no README row for the route ${route}`),
      ...unknown.map((row) => `README row ${row} matches no registered route`),
      ...twice.map((row) => `README row ${row} appears more than once`),
    ];
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
});
