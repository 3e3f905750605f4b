import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** What the provider stores of one object, and when it ends (ms since the epoch; null: never). */
export interface OidcModelRow {
  payload: string;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  expiresAt: number | null;
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

    /** Delete what expired before `now`; how many rows went. */
    async purge(now: number): Promise<number> {
      const result = await db.deleteFrom('oidc_models').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type OidcModelsRepository = ReturnType<typeof oidcModelsRepository>;
