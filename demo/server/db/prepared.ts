import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { changeCounterOf, sqliteHandleOf } from './connect';
import type { Database } from './schema';

/** A placeholder for one named parameter while the query is built. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A query built and compiled once, then run with new parameter values. Kysely builds and compiles a
 * query's whole tree on every call, as costly as the database itself for the lookups every bearer
 * request makes (docs/decisions/bearer-lookup-once.md). `build` receives a placeholder for each named parameter and must use each one
 * only as a value (in `where`, not in `sql.lit` or as a column name). The compiled SQL is the dialect's
 * own, so this works on SQLite and PostgreSQL alike.
 *
 * On SQLite the query also skips Kysely when it can: it runs its own prepared statement on the
 * connection directly, reading the row as an array (better-sqlite3 otherwise looks each column's name
 * up in V8's string table for every row) — unless a transaction is open. Kysely's SQLite driver holds
 * the one connection for a transaction across its awaits; a read in between would see the
 * transaction's uncommitted writes, so then the query queues behind it through Kysely like any other.
 * Without a transaction no other query can be half-way: better-sqlite3 runs each one synchronously.
 */
export function preparedQuery<Names extends string, Row>(
  db: Kysely<Database>,
  names: readonly Names[],
  build: (slots: Record<Names, never>) => Compilable<Row>,
): (values: Record<Names, unknown>) => Promise<Row | undefined> {
  const slots = Object.fromEntries(names.map((name) => [name, new Slot(name)])) as unknown as Record<
    Names,
    never
  >;
  const compiled = build(slots).compile();
  const order = compiled.parameters.map((value) => {
    if (!(value instanceof Slot)) throw new Error('preparedQuery: every value must be a named parameter');
    return value.name as Names;
  });
  for (const name of names) {
    if (!order.includes(name)) throw new Error(`preparedQuery: parameter ${name} is not used`);
  }
  const viaKysely = async (parameters: unknown[]): Promise<Row | undefined> => {
    const query: CompiledQuery<Row> = { ...compiled, parameters };
    return (await db.executeQuery(query)).rows[0];
  };
  const sqlite = sqliteHandleOf(db);
  if (!sqlite) return (values) => viaKysely(order.map((name) => values[name]));

  const statement = sqlite.prepare(compiled.sql).raw(true);
  const columns = statement.columns().map((column) => column.name);
  return async (values) => {
    const parameters = order.map((name) => values[name]);
    if (sqlite.inTransaction) return viaKysely(parameters);
    const cells = statement.get(parameters) as unknown[] | undefined;
    if (!cells) return undefined;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = cells[i];
    return row as Row;
  };
}

/**
 * A read whose answers are kept, per key, until any row of the database changes: the next call with the
 * same key answers from memory while nothing has been written since, and reads again once anything has.
 * A write through any route, a transaction or a test's direct query alike moves the count it watches
 * (`changeCounterOf`), so nothing kept outlives a change. Only found answers are kept (a miss reads
 * again), and only when nothing changed and no transaction was open from before the read to after it.
 * Keys are objects, held weakly: an answer goes when its key does.
 *
 * On PostgreSQL the count is the node's change feed (db/changes.ts): other nodes' writes reach it as
 * notifications, at most one notification's delay after they commit; while the feed is down every call
 * reads (docs/decisions/cross-node-invalidation.md).
 * What an answer means at a given time (an expiry) is for the caller to judge on each call: the
 * answers are the rows as stored, not a verdict.
 */
export function keptUntilChange<Key extends object, Value>(
  db: Kysely<Database>,
  read: (key: Key) => Promise<Value | undefined>,
): (key: Key) => Promise<Value | undefined> {
  const changes = changeCounterOf(db);
  if (!changes) return read;
  const kept = new WeakMap<Key, { changes: number; value: Value }>();
  return async (key) => {
    const before = changes();
    if (before !== undefined) {
      const entry = kept.get(key);
      if (entry && entry.changes === before) return entry.value;
    }
    const value = await read(key);
    if (value !== undefined && before !== undefined && changes() === before) {
      kept.set(key, { changes: before, value });
    }
    return value;
  };
}
