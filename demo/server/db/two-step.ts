import type { Kysely } from 'kysely';
import type { Database, PendingSignIn } from './schema';

/** The user a pending sign-in names, with what the second step needs to know of them. */
export interface PendingUser {
  pending: PendingSignIn;
  email: string;
  teamName: string;
  disabled: boolean;
  locked: boolean;
}

/**
 * Two-step sign-in: the authenticator-app key, its used time steps, recovery codes and sign-ins
 * waiting for their second step. Every single-use rule is one conditional write, so of two parallel
 * uses exactly one wins.
 */
export function twoStepRepository(db: Kysely<Database>) {
  return {
    /** The user's key (sealed) and whether it is confirmed. */
    totpOf(userId: string) {
      return db
        .selectFrom('totp_secrets')
        .select(['sealed_secret', 'confirmed_at'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    /**
     * Store a new unconfirmed key, replacing an unconfirmed one; never a confirmed one (false then: two-step
     * sign-in is already on and must be removed first).
     */
    async enrol(userId: string, sealed: string, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('totp_secrets')
          .select('confirmed_at')
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (current?.confirmed_at != null) return false;
        await trx.deleteFrom('totp_secrets').where('user_id', '=', userId).execute();
        await trx
          .insertInto('totp_secrets')
          .values({ user_id: userId, sealed_secret: sealed, created_at: now, confirmed_at: null })
          .execute();
        return true;
      });
    },

    /**
     * Confirm the unconfirmed key and store the first recovery codes with it, at once. False when there
     * is no unconfirmed key (none, or confirmed meanwhile).
     */
    async confirm(userId: string, codeHashes: string[], now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const confirmed = await trx
          .updateTable('totp_secrets')
          .set({ confirmed_at: now })
          .where('user_id', '=', userId)
          .where('confirmed_at', 'is', null)
          .executeTakeFirst();
        if (Number(confirmed.numUpdatedRows) !== 1) return false;
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await trx
          .insertInto('recovery_codes')
          .values(
            codeHashes.map((code_hash) => ({ code_hash, user_id: userId, created_at: now, used_at: null })),
          )
          .execute();
        return true;
      });
    },

    /**
     * Put a new key in place of the confirmed `current` one, in one conditional UPDATE: false when the key
     * in force is no longer `current` (replaced, removed or turned off meanwhile). The recovery codes stay.
     */
    async replace(userId: string, current: string, sealed: string, now: number): Promise<boolean> {
      const replaced = await db
        .updateTable('totp_secrets')
        .set({ sealed_secret: sealed, created_at: now, confirmed_at: now })
        .where('user_id', '=', userId)
        .where('sealed_secret', '=', current)
        .where('confirmed_at', 'is not', null)
        .executeTakeFirst();
      return Number(replaced.numUpdatedRows) === 1;
    },

    /** Turn two-step sign-in off: the key, its used steps and the recovery codes go. Whether it was on. */
    async remove(userId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const removed = await trx
          .deleteFrom('totp_secrets')
          .where('user_id', '=', userId)
          .where('confirmed_at', 'is not', null)
          .executeTakeFirst();
        await trx.deleteFrom('totp_used_steps').where('user_id', '=', userId).execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        return Number(removed.numDeletedRows) === 1;
      });
    },

    /**
     * Record that the code of `step` was used: false when it already was (a replay). Steps older than
     * `forgetBefore` are dropped: their codes no longer validate anyway.
     */
    async useStep(userId: string, step: number, now: number, forgetBefore: number): Promise<boolean> {
      await db
        .deleteFrom('totp_used_steps')
        .where('user_id', '=', userId)
        .where('step', '<', forgetBefore)
        .execute();
      const inserted = await db
        .insertInto('totp_used_steps')
        .values({ user_id: userId, step, used_at: now })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    /** Replace the user's recovery codes (the old ones stop working). False when two-step is off. */
    async replaceRecoveryCodes(userId: string, codeHashes: string[], now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const on = await trx
          .selectFrom('totp_secrets')
          .select('user_id')
          .where('user_id', '=', userId)
          .where('confirmed_at', 'is not', null)
          .executeTakeFirst();
        if (!on) return false;
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await trx
          .insertInto('recovery_codes')
          .values(
            codeHashes.map((code_hash) => ({ code_hash, user_id: userId, created_at: now, used_at: null })),
          )
          .execute();
        return true;
      });
    },

    /** Use a recovery code of the user once: one conditional UPDATE. Whether this call used it. */
    async useRecoveryCode(userId: string, codeHash: string, now: number): Promise<boolean> {
      const used = await db
        .updateTable('recovery_codes')
        .set({ used_at: now })
        .where('code_hash', '=', codeHash)
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1;
    },

    async unusedRecoveryCodes(userId: string): Promise<number> {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Store a pending sign-in, and forget those that ended before `forgetBefore` (used or expired). */
    async insertPending(pending: PendingSignIn, forgetBefore: number): Promise<void> {
      await db.deleteFrom('pending_sign_ins').where('expires_at', '<', forgetBefore).execute();
      await db.insertInto('pending_sign_ins').values(pending).execute();
    },

    /** A pending sign-in that is unused and not expired, with its user's address and team. */
    async findPending(idHash: string, now: number): Promise<PendingUser | undefined> {
      const row = await db
        .selectFrom('pending_sign_ins')
        .innerJoin('users', 'users.id', 'pending_sign_ins.user_id')
        .innerJoin('teams', 'teams.id', 'users.team_id')
        .selectAll('pending_sign_ins')
        .select([
          'users.email',
          'users.disabled_at',
          'users.locked',
          'teams.name as team_name',
          'teams.disabled',
        ])
        .where('pending_sign_ins.id_hash', '=', idHash)
        .where('pending_sign_ins.used_at', 'is', null)
        .where('pending_sign_ins.expires_at', '>', now)
        .executeTakeFirst();
      if (!row) return undefined;
      const { email, disabled_at, locked, team_name, disabled, ...pending } = row;
      return {
        pending,
        email,
        teamName: team_name,
        disabled: disabled_at !== null || disabled !== 0,
        locked: locked !== 0,
      };
    },

    /** Finish a pending sign-in once (unused, not expired). Whether this call did. */
    async finishPending(idHash: string, now: number): Promise<boolean> {
      const used = await db
        .updateTable('pending_sign_ins')
        .set({ used_at: now })
        .where('id_hash', '=', idHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1;
    },

    /** End a pending sign-in (a lock, a sign-out); its cookie then names nothing. */
    async dropPending(idHash: string): Promise<void> {
      await db.deleteFrom('pending_sign_ins').where('id_hash', '=', idHash).execute();
    },
  };
}

export type TwoStepRepository = ReturnType<typeof twoStepRepository>;
