import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './connect';
import type { Database, ExternalAccountsTable, User } from './schema';

/** A provider identity to link: `provider` is the API's name (Google, AzureAD, Auth0). */
export interface NewLink {
  userId: string;
  teamId: string;
  provider: string;
  subject: string;
  /** Shown as 'connected as {userName}'. */
  userName: string;
  now: number;
}

/**
 * Provider identities linked to users (`external_accounts`): one identity per (team, provider, subject),
 * one identity of each provider per user — both unique, so a racing second link inserts nothing.
 */
export function identitiesRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** The user this identity is linked to in the team. */
    findLinkedUser(teamId: string, provider: string, subject: string): Promise<User | undefined> {
      return db
        .selectFrom('external_accounts')
        .innerJoin('users', 'users.id', 'external_accounts.user_id')
        .selectAll('users')
        .where('external_accounts.team_id', '=', teamId)
        .where('external_accounts.provider', '=', provider)
        .where('external_accounts.subject', '=', subject)
        .executeTakeFirst();
    },

    /** The id of the user this identity is linked to in the team. */
    async ownerOf(teamId: string, provider: string, subject: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('external_accounts')
        .select('user_id')
        .where('team_id', '=', teamId)
        .where('provider', '=', provider)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return row?.user_id;
    },

    /** The subject of the user's identity of this provider, if one is linked. */
    async subjectLinkedTo(userId: string, provider: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('external_accounts')
        .select('subject')
        .where('user_id', '=', userId)
        .where('provider', '=', provider)
        .executeTakeFirst();
      return row?.subject;
    },

    /** Link an identity, unless either uniqueness stands in the way (then nothing). Whether it linked. */
    async link(link: NewLink): Promise<boolean> {
      const inserted = await db
        .insertInto('external_accounts')
        .values({
          id: randomUUID(),
          user_id: link.userId,
          team_id: link.teamId,
          provider: link.provider,
          subject: link.subject,
          user_name: link.userName,
          created_at: link.now,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    /** The user's linked identities: provider and the name shown for it, by provider. */
    listFor(userId: string): Promise<Array<Pick<ExternalAccountsTable, 'provider' | 'user_name'>>> {
      return db
        .selectFrom('external_accounts')
        .select(['provider', 'user_name'])
        .where('user_id', '=', userId)
        .orderBy('provider')
        .execute();
    },

    /**
     * Unlink the user's identity of this provider, unless it is the only way to sign in (no password, no
     * other identity and no passkey). Decided inside one write transaction (SQLite: BEGIN IMMEDIATE serialises
     * writers; PostgreSQL: the user's row is locked), so two parallel unlinks cannot both pass.
     */
    unlinkUnlessLast(userId: string, provider: string): Promise<'unlinked' | 'not-linked' | 'only-sign-in'> {
      return db.transaction().execute(async (trx) => {
        if (dialect === 'postgres') {
          await sql`select id from users where id = ${userId} for update`.execute(trx);
        }
        const user = await trx
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow();
        const accounts = await trx
          .selectFrom('external_accounts')
          .select(['id', 'provider'])
          .where('user_id', '=', userId)
          .execute();
        const target = accounts.find((a) => a.provider === provider);
        if (!target) return 'not-linked';
        const passkeys = await trx
          .selectFrom('passkeys')
          .select('id')
          .where('user_id', '=', userId)
          .limit(1)
          .execute();
        if (!user.password_hash && accounts.length === 1 && passkeys.length === 0) return 'only-sign-in';
        await trx.deleteFrom('external_accounts').where('id', '=', target.id).execute();
        return 'unlinked';
      });
    },
  };
}

export type IdentitiesRepository = ReturnType<typeof identitiesRepository>;
