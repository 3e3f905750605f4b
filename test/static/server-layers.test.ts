/**
 * The reference server keeps its data access in one place: the repositories and the seed under
 * `demo/server/db/` hold every query; routes and plugins validate, call and answer, and the services in
 * `lib/` go through the repositories too. A query builder anywhere else, or Kysely itself imported
 * there, is a query out of place. Routes and plugins also take nothing from the demo data (the seed):
 * what the domain defines, such as the permissions, lives in `domain/`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

const SERVER = resolve(import.meta.dirname, '..', '..', 'demo', 'server');

const sources = readdirSync(SERVER, { recursive: true })
  .map(String)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name: name.split(sep).join('/'), text: readFileSync(join(SERVER, name), 'utf8') }));

/** Kysely's query builders and its `sql` tag: where one is called, a query is written. */
const QUERY =
  /\.(selectFrom|selectNoFrom|updateTable|insertInto|replaceInto|deleteFrom|mergeInto|transaction|executeQuery)\s*\(|\bsql(\.\w+)?\s*(`|\()/;
const KYSELY_IMPORT = /from\s+['"]kysely['"]/;

/** Each line matching `pattern` in the files `within` accepts, as `file:line: text`. */
function offences(pattern: RegExp, within: (name: string) => boolean): string[] {
  return sources
    .filter(({ name }) => within(name))
    .flatMap(({ name, text }) =>
      text
        .split('\n')
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => pattern.test(line))
        .map(({ line, index }) => `${name}:${index + 1}: ${line.trim()}`),
    );
}

const outsideDb = (name: string) => !name.startsWith('db/');
const routesAndPlugins = (name: string) => name.startsWith('routes/') || name.startsWith('plugins/');

describe('server layers', () => {
  it('reads the server sources (routes, plugins, lib, db)', () => {
    for (const folder of ['routes/', 'plugins/', 'lib/', 'db/']) {
      assert.ok(
        sources.some(({ name }) => name.startsWith(folder)),
        `no file read under demo/server/${folder}`,
      );
    }
  });

  it('has no query in a route or a plugin', () => {
    assert.deepEqual(offences(QUERY, routesAndPlugins), []);
  });

  it('has no query, and no Kysely import, outside db/ (the repositories)', () => {
    assert.deepEqual(offences(QUERY, outsideDb), []);
    assert.deepEqual(offences(KYSELY_IMPORT, outsideDb), []);
  });

  it('routes and plugins import nothing from the seed (demo data)', () => {
    assert.deepEqual(offences(/from\s+['"][./]*\/db\/seed['"]/, routesAndPlugins), []);
  });
});
