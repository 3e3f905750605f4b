import type { Kysely } from 'kysely';
import type { Database, OauthFlowsTable } from './schema';

/** Provider sign-in round trips, stored by the SHA-256 of their state (lib/external.ts). */
export function oauthFlowsRepository(db: Kysely<Database>) {
  return {
    async insert(flow: OauthFlowsTable): Promise<void> {
      await db.insertInto('oauth_flows').values(flow).execute();
    },

    findByState(stateHash: string): Promise<OauthFlowsTable | undefined> {
      return db.selectFrom('oauth_flows').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
    },

    /** Use the flow once: one conditional UPDATE, so a replayed callback finds it used. Whether this call did. */
    async markUsed(stateHash: string, now: number): Promise<boolean> {
      const used = await db
        .updateTable('oauth_flows')
        .set({ used_at: now })
        .where('state_hash', '=', stateHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1;
    },
  };
}

export type OauthFlowsRepository = ReturnType<typeof oauthFlowsRepository>;
