import type { Kysely } from 'kysely';
import type { Database, Session } from './schema';

/**
 * End every live session of a user, except `keep` (an id hash); the number ended. Takes the database or
 * an open transaction: a password reset ends the sessions in the same transaction that sets the password.
 */
export async function revokeUserSessions(
  db: Kysely<Database>,
  userId: string,
  now: number,
  keep?: string,
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keep) query = query.where('id_hash', '!=', keep);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Browser sessions, stored by the SHA-256 of their cookie value (lib/sessions.ts decides their life). */
export function sessionsRepository(db: Kysely<Database>) {
  return {
    async insert(session: Session): Promise<void> {
      await db.insertInto('sessions').values(session).execute();
    },

    /**
     * The session of a cookie hash if not revoked, not past its end and seen after `seenAfter`, and its
     * user not disabled (disabling revokes their sessions too; this also covers a sign-in that was
     * finishing while they were disabled).
     */
    findLive(idHash: string, now: number, seenAfter: number): Promise<Session | undefined> {
      return db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .selectAll('sessions')
        .where('sessions.id_hash', '=', idHash)
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', now)
        .where('sessions.last_seen_at', '>', seenAfter)
        .where('users.disabled_at', 'is', null)
        .executeTakeFirst();
    },

    async touch(idHash: string, now: number): Promise<void> {
      await db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
    },

    async revoke(idHash: string, now: number): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('id_hash', '=', idHash)
        .where('revoked_at', 'is', null)
        .execute();
    },

    revokeAllForUser: (userId: string, now: number, keep?: string) =>
      revokeUserSessions(db, userId, now, keep),

    /** The id hash of the session with this public handle (revoked or not), if any. */
    async idHashOf(publicId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('sessions')
        .select('id_hash')
        .where('public_id', '=', publicId)
        .executeTakeFirst();
      return row?.id_hash;
    },
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
