import type { Kysely } from 'kysely';
import type { Dialect } from './connect';
import { recordAudit, type Actor } from './audit';
import type { Database, ProviderKind, Team, TeamProvidersTable } from './schema';

/** The sign-in methods a team can offer, by the key the API uses for each. */
export const LOGIN_METHODS = {
  local: 'local_enabled',
  google: 'google_enabled',
  azure: 'azure_enabled',
  auth0: 'auth0_enabled',
  apple: 'apple_enabled',
} as const;
export type LoginMethod = keyof typeof LOGIN_METHODS;

/**
 * The team's other sign-in settings, by API key: not methods a member can have on their own (a passkey
 * is added once signed in; a mailed code reaches only an address the team already knows), so none
 * needs a provider configuration nor counts as the last method.
 */
export const LOGIN_SETTINGS = {
  requireTwoStep: 'require_two_step',
  passkeys: 'passkeys_enabled',
  emailCode: 'email_code_enabled',
} as const;
export type LoginSetting = keyof typeof LOGIN_SETTINGS;

/**
 * Take the team's row for the rest of a write transaction: on PostgreSQL a row lock, so two admins' (or
 * invitees') writes that judge the team's seats or methods run one after the other; on SQLite every
 * write transaction already holds the database's write lock from its start (BEGIN IMMEDIATE).
 */
export async function lockTeam(trx: Kysely<Database>, dialect: Dialect, teamId: string): Promise<void> {
  if (dialect === 'postgres') {
    await trx.selectFrom('teams').select('id').where('id', '=', teamId).forUpdate().execute();
  }
}

/** Invitations that hold a seat: not accepted, revoked or resent, and not expired. */
export async function pendingInvitations(
  db: Kysely<Database>,
  teamId: string,
  now: number,
  except?: string,
): Promise<number> {
  let query = db
    .selectFrom('invitations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('superseded_at', 'is', null)
    .where('expires_at', '>', now);
  if (except) query = query.where('id', '!=', except);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Seats in use: every member (disabled ones too) and every pending invitation. */
export async function seatsOf(db: Kysely<Database>, teamId: string, now: number, except?: string) {
  const team = await db
    .selectFrom('teams')
    .select(['member_count', 'seat_limit'])
    .where('id', '=', teamId)
    .executeTakeFirstOrThrow();
  const pending = await pendingInvitations(db, teamId, now, except);
  return { members: team.member_count, pending, used: team.member_count + pending, limit: team.seat_limit };
}

export type SeatLimitOutcome = { ok: true } | { ok: false; reason: 'belowCount'; used: number };
export type LoginOptionsOutcome =
  | { ok: true }
  | { ok: false; reason: 'lastMethod' }
  | { ok: false; reason: 'notConfigured'; method: LoginMethod };

/** Teams, the providers each one is configured with, and what a team's admins set. */
export function teamsRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** The team with this (normalised) name. */
    findByName(name: string): Promise<Team | undefined> {
      return db.selectFrom('teams').selectAll().where('name', '=', name).executeTakeFirst();
    },

    findById(id: string): Promise<Team | undefined> {
      return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Put the first-steps checklist of a team a sign-up made away, for good. */
    async dismissChecklist(teamId: string): Promise<void> {
      await db.updateTable('teams').set({ checklist: 0 }).where('id', '=', teamId).execute();
    },

    /** The team a public address names: by its (normalised) name or by its id. */
    findByNameOrId(name: string, id: string): Promise<Team | undefined> {
      return db
        .selectFrom('teams')
        .selectAll()
        .where((eb) => eb.or([eb('name', '=', name), eb('id', '=', id)]))
        .executeTakeFirst();
    },

    /** The team's display name and mail brand (for a mail to one of its users); throws if it is gone. */
    brandingOf(teamId: string): Promise<Pick<Team, 'display_name' | 'brand'>> {
      return db
        .selectFrom('teams')
        .select(['display_name', 'brand'])
        .where('id', '=', teamId)
        .executeTakeFirstOrThrow();
    },

    /** The team's configuration of a provider (issuer, client, tenant and domain rules), if it has one. */
    findProvider(teamId: string, kind: ProviderKind): Promise<TeamProvidersTable | undefined> {
      return db
        .selectFrom('team_providers')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('kind', '=', kind)
        .executeTakeFirst();
    },

    /** What the team's admins see: the team, its seats, and which providers it has configured. */
    async adminView(teamId: string, now: number) {
      const team = await db
        .selectFrom('teams')
        .selectAll()
        .where('id', '=', teamId)
        .executeTakeFirstOrThrow();
      const pending = await pendingInvitations(db, teamId, now);
      const providers = await db
        .selectFrom('team_providers')
        .select('kind')
        .where('team_id', '=', teamId)
        .execute();
      // Who would have to set up two-step sign-in if the team required it: members able to sign in
      // (not disabled) without a confirmed authenticator.
      const withoutTwoStep = await db
        .selectFrom('users')
        .leftJoin('totp_secrets', (join) =>
          join.onRef('totp_secrets.user_id', '=', 'users.id').on('totp_secrets.confirmed_at', 'is not', null),
        )
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('users.team_id', '=', teamId)
        .where('users.disabled_at', 'is', null)
        .where('totp_secrets.user_id', 'is', null)
        .executeTakeFirstOrThrow();
      return {
        team,
        pending,
        configured: new Set(providers.map((row) => row.kind)),
        withoutTwoStep: Number(withoutTwoStep.n),
      };
    },

    /** Set the seat limit, never below the seats in use (decided with the team's row held). */
    setSeatLimit(teamId: string, limit: number, actor: Actor, now: number): Promise<SeatLimitOutcome> {
      return db.transaction().execute(async (trx) => {
        await lockTeam(trx, dialect, teamId);
        const seats = await seatsOf(trx, teamId, now);
        if (limit < seats.used) return { ok: false, reason: 'belowCount', used: seats.used };
        await trx.updateTable('teams').set({ seat_limit: limit }).where('id', '=', teamId).execute();
        await recordAudit(trx, {
          teamId,
          actor,
          action: 'team.seatLimit',
          target: String(limit),
          detail: { from: seats.limit, to: limit },
          now,
        });
        return { ok: true };
      });
    },

    /**
     * Turn sign-in methods on or off, and the other settings (two-step sign-in required, passkeys). A provider can be turned on only where the team has it configured;
     * the change is refused when it would leave no method at all — decided with the team's row held, so
     * two admins turning off the last two methods at once cannot both succeed.
     */
    setLoginOptions(
      teamId: string,
      changes: Partial<Record<LoginMethod | LoginSetting, boolean>>,
      actor: Actor,
      now: number,
    ): Promise<LoginOptionsOutcome> {
      return db.transaction().execute(async (trx) => {
        await lockTeam(trx, dialect, teamId);
        const team = await trx
          .selectFrom('teams')
          .selectAll()
          .where('id', '=', teamId)
          .executeTakeFirstOrThrow();
        const providers = await trx
          .selectFrom('team_providers')
          .select('kind')
          .where('team_id', '=', teamId)
          .execute();
        const configured = new Set<string>(providers.map((row) => row.kind));
        const methods = Object.keys(LOGIN_METHODS) as LoginMethod[];
        const settings = Object.keys(LOGIN_SETTINGS) as LoginSetting[];
        const columns = { ...LOGIN_METHODS, ...LOGIN_SETTINGS };
        const before = Object.fromEntries(
          [...methods, ...settings].map((m) => [m, team[columns[m]] === 1]),
        ) as Record<LoginMethod | LoginSetting, boolean>;
        const after = { ...before };
        for (const method of methods) {
          const wanted = changes[method];
          if (wanted === undefined) continue;
          if (wanted && !before[method] && method !== 'local' && !configured.has(method))
            return { ok: false, reason: 'notConfigured', method };
          after[method] = wanted;
        }
        if (!methods.some((method) => after[method])) return { ok: false, reason: 'lastMethod' };
        for (const setting of settings) after[setting] = changes[setting] ?? before[setting];
        const changed = [...methods, ...settings].filter((m) => after[m] !== before[m]);
        if (changed.length === 0) return { ok: true };
        await trx
          .updateTable('teams')
          .set(Object.fromEntries(changed.map((m) => [columns[m], after[m] ? 1 : 0])))
          .where('id', '=', teamId)
          .execute();
        await recordAudit(trx, {
          teamId,
          actor,
          action: 'team.loginOptions',
          target: changed.join(', '),
          detail: Object.fromEntries(changed.map((m) => [m, after[m]])),
          now,
        });
        return { ok: true };
      });
    },

    /** Store the storage a suite app reports for the team; the usage and limit as they now stand. */
    setStorageUsed(
      teamId: string,
      usedBytes: number,
      client: string,
      now: number,
    ): Promise<{ usedBytes: number; limitBytes: number }> {
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('teams')
          .select(['storage_used_bytes', 'storage_limit_bytes'])
          .where('id', '=', teamId)
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('teams')
          .set({ storage_used_bytes: usedBytes })
          .where('id', '=', teamId)
          .execute();
        await recordAudit(trx, {
          teamId,
          actor: null,
          action: 'team.storage',
          target: client,
          detail: { from: before.storage_used_bytes, to: usedBytes },
          now,
        });
        return { usedBytes, limitBytes: before.storage_limit_bytes };
      });
    },
  };
}

export type TeamsRepository = ReturnType<typeof teamsRepository>;
