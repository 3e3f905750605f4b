import type { Kysely } from 'kysely';
import type { Database, SigningKeyRow } from './schema';

/**
 * The signing keys and the server's shared secrets (docs/decisions/keys-in-database.md). Inserts never
 * overwrite: a node that loses a race to add the same generation or secret reads the winner's instead.
 */
export function signingKeysRepository(db: Kysely<Database>) {
  return {
    all(): Promise<SigningKeyRow[]> {
      return db.selectFrom('signing_keys').selectAll().orderBy('generation').execute();
    },

    /** Adds the key unless its generation is taken; whether it was added. */
    async add(row: SigningKeyRow): Promise<boolean> {
      const result = await db
        .insertInto('signing_keys')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** The secret stored under `name`, storing `create()`'s value first if there is none. */
    async secret(name: string, create: () => string, now: number): Promise<string> {
      await db
        .insertInto('server_secrets')
        .values({ name, value: create(), created_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db
        .selectFrom('server_secrets')
        .select('value')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return row.value;
    },
  };
}

export type SigningKeysRepository = ReturnType<typeof signingKeysRepository>;
