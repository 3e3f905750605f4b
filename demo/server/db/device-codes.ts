import type { Kysely } from 'kysely';
import type { Database, DeviceCodesTable } from './schema';

/** QR device authorizations, stored by the SHA-256 of their device code. */
export function deviceCodesRepository(db: Kysely<Database>) {
  return {
    async insert(code: DeviceCodesTable): Promise<void> {
      await db.insertInto('device_codes').values(code).execute();
    },

    findByHash(codeHash: string): Promise<DeviceCodesTable | undefined> {
      return db.selectFrom('device_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    },

    /**
     * Use the code once, if still unused and not expired: one conditional UPDATE, so of parallel
     * exchanges exactly one wins. Whether this call did.
     */
    async redeem(codeHash: string, now: number): Promise<boolean> {
      const used = await db
        .updateTable('device_codes')
        .set({ used_at: now })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1;
    },
  };
}

export type DeviceCodesRepository = ReturnType<typeof deviceCodesRepository>;
