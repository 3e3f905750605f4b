import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** What the provider stores of one object, and when it ends (ms since the epoch; null: never). */
export interface OidcModelRow {
  payload: string;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  expiresAt: number | null;
  /** The user it belongs to (the payload's `accountId`). */
  accountId: string | null;
  /** The client it was issued to (the payload's `clientId`). */
  clientId: string | null;
}

/** One of a user's grants: the provider's payload, and when an app last used it (ms). */
export interface FoundGrant {
  id: string;
  payload: string;
  usedAt: number | null;
}

/** A stored object as found: its payload and when it was consumed (ms), if it was. */
export interface FoundOidcModel {
  payload: string;
  consumedAt: number | null;
}

/**
 * The OpenID Provider's objects (oidc-provider's models), one row per model and id. Every read leaves
 * out what has expired: the provider never sees an object past its end, whenever the purge last ran.
 */
export function oidcModelsRepository(db: Kysely<Database>) {
  const live = (model: string, now: number) =>
    db
      .selectFrom('oidc_models')
      .select(['payload', 'consumed_at as consumedAt'])
      .where('model', '=', model)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));

  return {
    /** Insert or replace: the provider saves an object again when it changes (a session, a grant). */
    async upsert(model: string, id: string, row: OidcModelRow): Promise<void> {
      const values = {
        payload: row.payload,
        grant_id: row.grantId,
        user_code: row.userCode,
        uid: row.uid,
        expires_at: row.expiresAt,
        account_id: row.accountId,
        client_id: row.clientId,
      };
      await db
        .insertInto('oidc_models')
        .values({ model, id, consumed_at: null, ...values })
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(values))
        .execute();
    },

    find(model: string, id: string, now: number): Promise<FoundOidcModel | undefined> {
      return live(model, now).where('id', '=', id).executeTakeFirst();
    },

    findByUid(model: string, uid: string, now: number): Promise<FoundOidcModel | undefined> {
      return live(model, now).where('uid', '=', uid).executeTakeFirst();
    },

    findByUserCode(model: string, userCode: string, now: number): Promise<FoundOidcModel | undefined> {
      return live(model, now).where('user_code', '=', userCode).executeTakeFirst();
    },

    async destroy(model: string, id: string): Promise<void> {
      await db.deleteFrom('oidc_models').where('model', '=', model).where('id', '=', id).execute();
    },

    /** Every object of the model issued under the grant (a revoked grant, a replayed code). */
    async revokeByGrantId(model: string, grantId: string): Promise<void> {
      await db.deleteFrom('oidc_models').where('model', '=', model).where('grant_id', '=', grantId).execute();
    },

    /**
     * Mark the object used, if it is live and unused: one conditional UPDATE, so of two parallel uses of
     * the same code exactly one changes the row. Whether this call did.
     */
    async consume(model: string, id: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('oidc_models')
        .set({ consumed_at: now })
        .where('model', '=', model)
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Bind a provider session (its `uid`) to the portal session that finished its login. */
    async linkPortalSession(uid: string, portalSession: string): Promise<void> {
      await db
        .updateTable('oidc_models')
        .set({ portal_session: portalSession, portal_ended: null })
        .where('model', '=', 'Session')
        .where('uid', '=', uid)
        .execute();
    },

    /** The same user signed in again on the browser: its provider sessions stand on the new session. */
    async moveToPortalSession(from: string, to: string): Promise<void> {
      await db
        .updateTable('oidc_models')
        .set({ portal_session: to })
        .where('model', '=', 'Session')
        .where('portal_session', '=', from)
        .execute();
    },

    /** A code or a refresh token was issued under the grant: the app used it now. */
    async touchGrant(grantId: string, now: number): Promise<void> {
      await db
        .updateTable('oidc_models')
        .set({ used_at: now })
        .where('model', '=', 'Grant')
        .where('id', '=', grantId)
        .execute();
    },

    /** The user's live grants, the most recently used first. */
    grantsOf(accountId: string, now: number): Promise<FoundGrant[]> {
      return db
        .selectFrom('oidc_models')
        .select(['id', 'payload', 'used_at as usedAt'])
        .where('model', '=', 'Grant')
        .where('account_id', '=', accountId)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .orderBy('used_at', (ob) => ob.desc().nullsLast())
        .execute();
    },

    /**
     * Delete the provider sessions whose portal session has ended (marked by the triggers of migration
     * 012: revoked, or deleted with its user) and return the payloads of those still live. One DELETE …
     * RETURNING on an index: of two nodes sweeping at once, each session goes to exactly one, so its
     * apps are told once; and a request that ended nothing pays one index probe.
     */
    async takeEndedSessions(now: number): Promise<string[]> {
      const rows = await db
        .deleteFrom('oidc_models')
        .where('portal_ended', '=', 1)
        .where('model', '=', 'Session')
        .returning(['payload', 'expires_at as expiresAt'])
        .execute();
      return rows.filter((row) => row.expiresAt === null || row.expiresAt > now).map((row) => row.payload);
    },

    /** A grant and everything issued under it (codes, access and refresh tokens), on every model. */
    async revokeGrant(grantId: string): Promise<void> {
      await db
        .deleteFrom('oidc_models')
        .where((eb) =>
          eb.or([eb('grant_id', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])]),
        )
        .execute();
    },

    /**
     * Remove the user's grants and everything issued under them (codes, refresh tokens): a refresh
     * token of theirs then answers `invalid_grant`. Grants of another user are left alone.
     */
    async removeGrants(accountId: string, grantIds: string[]): Promise<void> {
      if (grantIds.length === 0) return;
      await db.transaction().execute(async (trx) => {
        const owned = await trx
          .selectFrom('oidc_models')
          .select('id')
          .where('model', '=', 'Grant')
          .where('account_id', '=', accountId)
          .where('id', 'in', grantIds)
          .execute();
        const ids = owned.map((row) => row.id);
        if (ids.length === 0) return;
        await trx.deleteFrom('oidc_models').where('grant_id', 'in', ids).execute();
        await trx.deleteFrom('oidc_models').where('model', '=', 'Grant').where('id', 'in', ids).execute();
      });
    },

    /** Delete what expired before `now`; how many rows went. */
    async purge(now: number): Promise<number> {
      const result = await db.deleteFrom('oidc_models').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type OidcModelsRepository = ReturnType<typeof oidcModelsRepository>;
