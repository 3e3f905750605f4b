import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** The proof-of-work challenges already solved once (lib/proof-of-work.ts decides what they prove). */
export function usedChallengesRepository(db: Kysely<Database>) {
  return {
    /**
     * Spend a challenge: true for the first use, false for any later one, on whichever node it lands
     * (one insert that does nothing on the primary key's conflict). Challenges that expired before
     * `now` are dropped first: their solutions are refused as expired anyway.
     */
    async spend(signatureHash: string, expiresAt: number, now: number): Promise<boolean> {
      await db.deleteFrom('used_challenges').where('expires_at', '<', now).execute();
      const inserted = await db
        .insertInto('used_challenges')
        .values({ signature_hash: signatureHash, expires_at: expiresAt })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
  };
}

export type UsedChallengesRepository = ReturnType<typeof usedChallengesRepository>;
