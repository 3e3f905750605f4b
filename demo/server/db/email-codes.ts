import type { Kysely } from 'kysely';
import type { Database, EmailCodesTable } from './schema';

/** A live code as the checks need it. */
export type LiveEmailCode = Pick<EmailCodesTable, 'id' | 'user_id' | 'code_hash' | 'browser_hash'>;

/**
 * Sign-in codes mailed to members (routes/email-code.ts): stored by the keyed hash of the code and the
 * SHA-256 of the link's token and of the asking browser's cookie; never the secrets themselves.
 */
export function emailCodesRepository(db: Kysely<Database>) {
  return {
    /**
     * A new code for the user, in one transaction with superseding every earlier live one (only the
     * latest mail works) and forgetting the user's rows that ended long ago.
     */
    async issue(
      row: Omit<EmailCodesTable, 'used_at' | 'superseded_at'>,
      forgetBefore: number,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('email_codes')
          .where('user_id', '=', row.user_id)
          .where('expires_at', '<', forgetBefore)
          .execute();
        await trx
          .updateTable('email_codes')
          .set({ superseded_at: row.created_at })
          .where('user_id', '=', row.user_id)
          .where('used_at', 'is', null)
          .where('superseded_at', 'is', null)
          .execute();
        await trx
          .insertInto('email_codes')
          .values({ ...row, used_at: null, superseded_at: null })
          .execute();
      });
    },

    /** The user's code that may still be used (at most one: a new one supersedes the others). */
    liveFor(userId: string, now: number): Promise<LiveEmailCode | undefined> {
      return db
        .selectFrom('email_codes')
        .select(['id', 'user_id', 'code_hash', 'browser_hash'])
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .where('superseded_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
    },

    /** The live code a mail's link names. */
    liveByLink(linkHash: string, now: number): Promise<LiveEmailCode | undefined> {
      return db
        .selectFrom('email_codes')
        .select(['id', 'user_id', 'code_hash', 'browser_hash'])
        .where('link_hash', '=', linkHash)
        .where('used_at', 'is', null)
        .where('superseded_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    /**
     * Use the code up by one conditional UPDATE: of many parallel uses (the code typed and the link
     * opened at once) exactly one wins. False when it was used, superseded or expired meanwhile.
     */
    async consume(id: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('email_codes')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('superseded_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** End the user's live code without using it (a lock started: the mail must not outlive it). */
    async supersedeFor(userId: string, now: number): Promise<void> {
      await db
        .updateTable('email_codes')
        .set({ superseded_at: now })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .where('superseded_at', 'is', null)
        .execute();
    },
  };
}

export type EmailCodesRepository = ReturnType<typeof emailCodesRepository>;
