import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { clearLoginFailures } from './login-failures';
import type { Database, PasswordResetsTable } from './schema';
import { revokeUserSessions } from './sessions';

/** What a redeemed reset changes: the user's password, and the lock on their sign-in. */
export interface ResetOutcome {
  userId: string;
  passwordHash: string;
  /** The (team, e-mail) whose failed sign-ins are forgotten. */
  teamName: string;
  email: string;
}

/** Password reset tickets, stored by the SHA-256 of their token (the token itself travels only by mail). */
export function passwordResetsRepository(db: Kysely<Database>) {
  return {
    /** A new ticket for the user, in one transaction with superseding every earlier live one. */
    async issue(userId: string, tokenHash: string, now: number, expiresAt: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('password_resets')
          .set({ superseded_at: now })
          .where('user_id', '=', userId)
          .where('used_at', 'is', null)
          .where('superseded_at', 'is', null)
          .execute();
        await trx
          .insertInto('password_resets')
          .values({
            id: randomUUID(),
            user_id: userId,
            token_hash: tokenHash,
            created_at: now,
            expires_at: expiresAt,
            used_at: null,
            superseded_at: null,
          })
          .execute();
      });
    },

    /** The user's tickets that may still be used: not used, not superseded, not expired. */
    liveFor(userId: string, now: number): Promise<Array<Pick<PasswordResetsTable, 'id' | 'token_hash'>>> {
      return db
        .selectFrom('password_resets')
        .select(['id', 'token_hash'])
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .where('superseded_at', 'is', null)
        .where('expires_at', '>', now)
        .execute();
    },

    /**
     * Redeem a ticket, in one transaction: consume it by one conditional UPDATE (so of many parallel uses
     * exactly one wins), then set the password, end every session of the user and lift any sign-in lock.
     * False, with nothing changed, when the ticket was already used, superseded or expired.
     */
    redeem(ticketId: string, now: number, outcome: ResetOutcome): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const consumed = await trx
          .updateTable('password_resets')
          .set({ used_at: now })
          .where('id', '=', ticketId)
          .where('used_at', 'is', null)
          .where('superseded_at', 'is', null)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        if (Number(consumed.numUpdatedRows) !== 1) return false;
        await trx
          .updateTable('users')
          .set({ password_hash: outcome.passwordHash, password_changed_at: now })
          .where('id', '=', outcome.userId)
          .execute();
        await revokeUserSessions(trx, outcome.userId, now);
        await clearLoginFailures(trx, outcome.teamName, outcome.email);
        return true;
      });
    },
  };
}

export type PasswordResetsRepository = ReturnType<typeof passwordResetsRepository>;
