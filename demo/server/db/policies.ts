import type { Kysely } from 'kysely';
import type { Database, PoliciesTable } from './schema';

/** The policies a developer token may carry as scopes, in their defined order. */
export function policiesRepository(db: Kysely<Database>) {
  return {
    /** The names of the public (not internal) policies: the scopes discovery announces. */
    async publicNames(): Promise<string[]> {
      const rows = await db
        .selectFrom('policies')
        .select('name')
        .where('internal', '=', 0)
        .orderBy('sort_order')
        .execute();
      return rows.map((row) => row.name);
    },

    /** Every policy's name and description; the internal ones only when asked for. */
    list(withInternal: boolean): Promise<Array<Pick<PoliciesTable, 'name' | 'description'>>> {
      let query = db.selectFrom('policies').select(['name', 'description']).orderBy('sort_order');
      if (!withInternal) query = query.where('internal', '=', 0);
      return query.execute();
    },

    /** The policies of these names that exist, with the permissions that may request each. */
    findByNames(names: string[]): Promise<Array<Pick<PoliciesTable, 'name' | 'permissions'>>> {
      return db.selectFrom('policies').select(['name', 'permissions']).where('name', 'in', names).execute();
    },
  };
}

export type PoliciesRepository = ReturnType<typeof policiesRepository>;
