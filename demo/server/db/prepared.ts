import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema';

/** A placeholder for one named parameter while the query is built. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A query built and compiled once, then run with new parameter values. Kysely builds and compiles a
 * query's whole tree on every call; for the lookups every bearer request makes, that cost as much as
 * the database itself. `build` receives a placeholder for each named parameter and must use each one
 * only as a value (in `where`, not in `sql.lit` or as a column name). The compiled SQL is the dialect's
 * own, so this works on SQLite and PostgreSQL alike.
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
  return async (values) => {
    const query: CompiledQuery<Row> = { ...compiled, parameters: order.map((name) => values[name]) };
    return (await db.executeQuery(query)).rows[0];
  };
}
