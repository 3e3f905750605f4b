import type { Kysely, Transaction } from 'kysely';
import type { AuditAction } from '../../../src/contract/team-rules';
import { recordAudit, type Actor } from './audit';
import type { Database, TeamAppKind, TeamAppsTable } from './schema';

/** A team's application as stored, with its team's name (the provider's `team`). */
export type TeamAppRow = TeamAppsTable & { team_name: string };

/** What an admin sets of an application (the client id, secret and times are the server's). */
export interface TeamAppFields {
  name: string;
  kind: TeamAppKind;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  thirdParty: boolean;
}

/** A change of an application: any of its fields but the kind, and whether it is off. */
export type TeamAppPatch = Partial<Omit<TeamAppFields, 'kind'>> & { disabled?: boolean };

/** A machine app's row (client credentials only: no addresses, never third-party). */
export function machineAppRow(
  app: Pick<TeamAppsTable, 'client_id' | 'team_id' | 'name' | 'secret_hash' | 'scopes'>,
  now: number,
): TeamAppsTable {
  return {
    ...app,
    kind: 'machine',
    redirect_uris: '[]',
    post_logout_redirect_uris: '[]',
    backchannel_logout_uri: null,
    third_party: 0,
    disabled: 0,
    created_at: now,
    updated_at: now,
    last_used_at: null,
  };
}

/**
 * A team's own applications (OpenID Connect clients and machine credentials), stored by their secret's
 * SHA-256. Every change is recorded in the audit trail in its own transaction; turning an app off or
 * deleting it also deletes what the OpenID Provider issued to it (grants, codes, refresh tokens).
 */
export function teamAppsRepository(db: Kysely<Database>) {
  const withTeam = (executor: Kysely<Database>) =>
    executor
      .selectFrom('team_apps')
      .innerJoin('teams', 'teams.id', 'team_apps.team_id')
      .selectAll('team_apps')
      .select('teams.name as team_name');

  /** The team's app of that id, if it is the team's. */
  const ownApp = (trx: Transaction<Database>, teamId: string, clientId: string) =>
    trx
      .selectFrom('team_apps')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('team_id', '=', teamId)
      .executeTakeFirst();

  /** Everything the provider issued to the client, and everything issued under its grants. */
  async function revokeIssued(trx: Transaction<Database>, clientId: string) {
    const grants = trx
      .selectFrom('oidc_models')
      .select('id')
      .where('model', '=', 'Grant')
      .where('client_id', '=', clientId);
    await trx.deleteFrom('oidc_models').where('grant_id', 'in', grants).execute();
    await trx.deleteFrom('oidc_models').where('client_id', '=', clientId).execute();
  }

  const audit = (
    trx: Transaction<Database>,
    app: Pick<TeamAppsTable, 'team_id' | 'name' | 'client_id'>,
    action: AuditAction,
    actor: Actor,
    now: number,
    detail: Record<string, unknown> = {},
  ) =>
    recordAudit(trx, {
      teamId: app.team_id,
      actor,
      action,
      target: app.name,
      detail: { clientId: app.client_id, ...detail },
      now,
    });

  return {
    /** The application of that client id, whatever its state (the client credentials grant checks it). */
    find(clientId: string): Promise<TeamAppRow | undefined> {
      return withTeam(db).where('team_apps.client_id', '=', clientId).executeTakeFirst();
    },

    /** A team's applications, by name. */
    list(teamId: string): Promise<TeamAppRow[]> {
      return withTeam(db)
        .where('team_apps.team_id', '=', teamId)
        .orderBy('team_apps.name')
        .orderBy('team_apps.client_id')
        .execute();
    },

    /** Whether a machine app that is on still exists for the team a token names (else its tokens stop). */
    async liveIn(clientId: string, teamId: string): Promise<boolean> {
      const row = await db
        .selectFrom('team_apps')
        .select('client_id')
        .where('client_id', '=', clientId)
        .where('team_id', '=', teamId)
        .where('disabled', '=', 0)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** When the app last got a token or a code. */
    async touch(clientId: string, now: number): Promise<void> {
      await db
        .updateTable('team_apps')
        .set({ last_used_at: now })
        .where('client_id', '=', clientId)
        .execute();
    },

    async create(
      teamId: string,
      app: TeamAppFields & { clientId: string; secretHash: string | null; scopes: string },
      actor: Actor,
      now: number,
    ): Promise<TeamAppRow> {
      return db.transaction().execute(async (trx) => {
        const row: TeamAppsTable = {
          client_id: app.clientId,
          team_id: teamId,
          name: app.name,
          kind: app.kind,
          redirect_uris: JSON.stringify(app.redirectUris),
          post_logout_redirect_uris: JSON.stringify(app.postLogoutRedirectUris),
          backchannel_logout_uri: app.backchannelLogoutUri,
          third_party: app.thirdParty ? 1 : 0,
          disabled: 0,
          secret_hash: app.secretHash,
          scopes: app.scopes,
          created_at: now,
          updated_at: now,
          last_used_at: null,
        };
        await trx.insertInto('team_apps').values(row).execute();
        await audit(trx, row, 'app.registered', actor, now, { kind: app.kind });
        return withTeam(trx).where('team_apps.client_id', '=', app.clientId).executeTakeFirstOrThrow();
      });
    },

    /** Change the team's app; undefined when it has none of that id. */
    async update(
      teamId: string,
      clientId: string,
      patch: TeamAppPatch,
      actor: Actor,
      now: number,
    ): Promise<TeamAppRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const before = await withTeam(trx)
          .where('team_apps.client_id', '=', clientId)
          .where('team_apps.team_id', '=', teamId)
          .executeTakeFirst();
        if (!before) return undefined;
        const set: Partial<TeamAppsTable> = { updated_at: now };
        if (patch.name !== undefined) set.name = patch.name;
        if (patch.redirectUris !== undefined) set.redirect_uris = JSON.stringify(patch.redirectUris);
        if (patch.postLogoutRedirectUris !== undefined)
          set.post_logout_redirect_uris = JSON.stringify(patch.postLogoutRedirectUris);
        if (patch.backchannelLogoutUri !== undefined) set.backchannel_logout_uri = patch.backchannelLogoutUri;
        if (patch.thirdParty !== undefined) set.third_party = patch.thirdParty ? 1 : 0;
        if (patch.disabled !== undefined) set.disabled = patch.disabled ? 1 : 0;
        await trx.updateTable('team_apps').set(set).where('client_id', '=', clientId).execute();
        const after = await withTeam(trx)
          .where('team_apps.client_id', '=', clientId)
          .executeTakeFirstOrThrow();
        const turnedOff = before.disabled === 0 && after.disabled === 1;
        if (turnedOff) await revokeIssued(trx, clientId);
        const changed = (
          [
            'name',
            'redirect_uris',
            'post_logout_redirect_uris',
            'backchannel_logout_uri',
            'third_party',
          ] as const
        ).filter((column) => before[column] !== after[column]);
        if (changed.length > 0)
          await audit(trx, after, 'app.changed', actor, now, { from: before.name, changed });
        if (before.disabled !== after.disabled)
          await audit(trx, after, after.disabled ? 'app.disabled' : 'app.enabled', actor, now);
        return after;
      });
    },

    /** A new secret (its hash) for the team's app; the old one stops at once. False when it has none. */
    async rotateSecret(
      teamId: string,
      clientId: string,
      secretHash: string,
      actor: Actor,
      now: number,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const app = await ownApp(trx, teamId, clientId);
        if (!app || app.secret_hash === null) return false;
        await trx
          .updateTable('team_apps')
          .set({ secret_hash: secretHash, updated_at: now })
          .where('client_id', '=', clientId)
          .execute();
        await audit(trx, app, 'app.secretRotated', actor, now);
        return true;
      });
    },

    /** Delete the team's app and everything issued to it; false when it has none of that id. */
    async remove(teamId: string, clientId: string, actor: Actor, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const app = await ownApp(trx, teamId, clientId);
        if (!app) return false;
        await trx.deleteFrom('team_apps').where('client_id', '=', clientId).execute();
        await revokeIssued(trx, clientId);
        await audit(trx, app, 'app.deleted', actor, now, { kind: app.kind });
        return true;
      });
    },
  };
}

export type TeamAppsRepository = ReturnType<typeof teamAppsRepository>;
