import { sql, type Kysely } from 'kysely';
import type { Dialect } from './connect';
import type { Database, Passkey, WebauthnChallengesTable } from './schema';

/** A passkey's owner as a passkey sign-in needs them. */
export interface PasskeyOwner {
  passkey: Passkey;
  teamName: string;
  /** The member or their team is disabled, or an administrator locked them: no sign-in. */
  refused: boolean;
}

/**
 * Passkeys (WebAuthn credentials) and the challenges of their ceremonies. A challenge is used once,
 * by one conditional UPDATE; a counter moves only forward, by another.
 */
export function passkeysRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    async insertChallenge(challenge: WebauthnChallengesTable): Promise<void> {
      await db.insertInto('webauthn_challenges').values(challenge).execute();
    },

    /**
     * Use a challenge once: unused, not expired, of this purpose and binding. The row (with its user)
     * when this call used it; undefined for a reused, expired, foreign or unknown one.
     */
    async useChallenge(
      challengeHash: string,
      purpose: WebauthnChallengesTable['purpose'],
      bindingHash: string,
      now: number,
    ): Promise<{ user_id: string | null } | undefined> {
      return db
        .updateTable('webauthn_challenges')
        .set({ used_at: now })
        .where('challenge_hash', '=', challengeHash)
        .where('purpose', '=', purpose)
        .where('binding_hash', '=', bindingHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst();
    },

    /** Forget challenges that ended before `before` (used or expired alike). */
    async dropChallengesBefore(before: number): Promise<void> {
      await db.deleteFrom('webauthn_challenges').where('expires_at', '<', before).execute();
    },

    async insert(passkey: Passkey): Promise<boolean> {
      const inserted = await db
        .insertInto('passkeys')
        .values(passkey)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    listFor(userId: string): Promise<Passkey[]> {
      return db
        .selectFrom('passkeys')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** The credential ids the user has (so an authenticator is not registered twice). */
    async credentialIdsOf(userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('passkeys')
        .select('credential_id')
        .where('user_id', '=', userId)
        .execute();
      return rows.map((row) => row.credential_id);
    },

    /** The passkey with this credential id, its owner's team, and whether its owner may sign in. */
    async findByCredential(credentialId: string): Promise<PasskeyOwner | undefined> {
      const row = await db
        .selectFrom('passkeys')
        .innerJoin('users', 'users.id', 'passkeys.user_id')
        .innerJoin('teams', 'teams.id', 'users.team_id')
        .selectAll('passkeys')
        .select(['users.disabled_at', 'users.locked', 'teams.disabled', 'teams.name as team_name'])
        .where('passkeys.credential_id', '=', credentialId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { disabled_at, locked, disabled, team_name, ...passkey } = row;
      return {
        passkey,
        teamName: team_name,
        refused: disabled_at !== null || locked !== 0 || disabled !== 0,
      };
    },

    /**
     * Record a use: the new counter, only if the stored one is still the one checked (a parallel use of
     * the same response cannot both pass). Whether this call did.
     */
    async recordUse(id: string, checkedCounter: number, counter: number, now: number): Promise<boolean> {
      const updated = await db
        .updateTable('passkeys')
        .set({ counter, last_used_at: now })
        .where('id', '=', id)
        .where('counter', '=', checkedCounter)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    /** Rename one of the user's passkeys; false when the user has no passkey of this id. */
    async rename(userId: string, id: string, name: string): Promise<Passkey | undefined> {
      return db
        .updateTable('passkeys')
        .set({ name })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Remove one of the user's passkeys, unless it is their last way to sign in (no password, no
     * provider account, no other passkey) — decided in one write transaction (SQLite: BEGIN IMMEDIATE;
     * PostgreSQL: the user's row is locked), so two parallel removals cannot both pass.
     */
    remove(userId: string, id: string): Promise<'removed' | 'not-found' | 'only-sign-in'> {
      return db.transaction().execute(async (trx) => {
        if (dialect === 'postgres')
          await sql`select id from users where id = ${userId} for update`.execute(trx);
        const passkeys = await trx
          .selectFrom('passkeys')
          .select('id')
          .where('user_id', '=', userId)
          .execute();
        if (!passkeys.some((p) => p.id === id)) return 'not-found';
        const user = await trx
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow();
        const accounts = await trx
          .selectFrom('external_accounts')
          .select('id')
          .where('user_id', '=', userId)
          .execute();
        if (!user.password_hash && accounts.length === 0 && passkeys.length === 1) return 'only-sign-in';
        await trx.deleteFrom('passkeys').where('id', '=', id).execute();
        return 'removed';
      });
    },
  };
}

export type PasskeysRepository = ReturnType<typeof passkeysRepository>;
