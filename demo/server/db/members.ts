import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Permission } from '../../../src/contract/permissions';
import {
  isAdmin,
  refuseMemberChange,
  type AuditAction,
  type MemberRefusal,
  type MemberState,
} from '../../../src/contract/team-rules';
import { recordAudit, type Actor } from './audit';
import type { Dialect } from './connect';
import { memberTerms, prefixRange, sortKey } from './member-terms';
import type { Database } from './schema';
import { revokeUserSessions } from './sessions';
import { lockTeam } from './teams';

/** A member who joins (by accepting an invitation). */
export interface NewMember {
  teamId: string;
  email: string;
  name: string;
  passwordHash: string | null;
  permissions: Permission[];
  language: string | null;
  now: number;
  /** A provider identity to link at once (an invitation accepted through a provider). */
  identity?: { provider: string; subject: string; userName: string };
  /** A member a directory makes has not signed in yet: null. Default: now (joining is signing in). */
  lastSignInAt?: number | null;
}

/**
 * Insert a user with their permissions, search terms and (if any) provider identity, in the caller's
 * transaction; the new id. Joining counts as signing in.
 */
export async function insertMember(trx: Kysely<Database>, member: NewMember): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto('users')
    .values({
      id,
      team_id: member.teamId,
      email: member.email,
      name: member.name,
      name_key: sortKey(member.name),
      password_hash: member.passwordHash,
      password_changed_at: member.passwordHash ? member.now : null,
      locked: 0,
      language: member.language,
      created_at: member.now,
      disabled_at: null,
      last_sign_in_at: member.lastSignInAt === undefined ? member.now : member.lastSignInAt,
    })
    .execute();
  for (const permission of member.permissions) {
    await trx.insertInto('user_permissions').values({ user_id: id, permission }).execute();
  }
  await writeTerms(trx, member.teamId, id, member.name, member.email);
  if (member.identity) {
    await trx
      .insertInto('external_accounts')
      .values({
        id: randomUUID(),
        user_id: id,
        team_id: member.teamId,
        provider: member.identity.provider,
        subject: member.identity.subject,
        user_name: member.identity.userName,
        created_at: member.now,
      })
      .execute();
  }
  return id;
}

/** (Re)write a member's search terms: after they join or are renamed. */
export async function writeTerms(
  trx: Kysely<Database>,
  teamId: string,
  userId: string,
  name: string,
  email: string,
): Promise<void> {
  await trx.deleteFrom('member_terms').where('user_id', '=', userId).execute();
  const terms = memberTerms(name, email);
  if (terms.length) {
    await trx
      .insertInto('member_terms')
      .values(terms.map(({ term, shadow }) => ({ team_id: teamId, term, user_id: userId, shadow })))
      .execute();
  }
}

/** Where a page of the member list ends: the next page starts after it. */
export type Cursor = { by: 'name'; key: string; id: string } | { by: 'term'; key: string; id: string };

/** Opaque to callers: base64url of the position. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.by, cursor.key, cursor.id])).toString('base64url');
}

/** The cursor a list call carries, or null when it is not one this server made. */
export function decodeCursor(value: string): Cursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 3) return null;
    const [by, key, id] = parsed as unknown[];
    if ((by !== 'name' && by !== 'term') || typeof key !== 'string' || typeof id !== 'string') return null;
    return { by, key, id };
  } catch {
    return null;
  }
}

/** A search counts its matches up to this many ("100+"): counting all of 100,000 would not do. */
export const SEARCH_COUNT_CAP = 100;

export interface MemberRow {
  id: string;
  name: string;
  email: string;
  hasPassword: boolean;
  lastSignInAt: number | null;
  disabled: boolean;
  permissions: Permission[];
  /** External account provider names (Google, AzureAD, Auth0, Apple). */
  providers: string[];
  groups: Array<{ id: string; name: string }>;
  /** Locked by an administrator (users.locked). */
  adminLocked: boolean;
  /** Until when too many failed sign-ins lock the member out (may lie in the past); null: never. */
  lockedUntil: number | null;
  /** Two-step sign-in set up (a confirmed authenticator). */
  twoStep: boolean;
}

export interface MemberPage {
  members: MemberRow[];
  next: Cursor | null;
  total: number;
  /** False when a search had more matches than it counted (SEARCH_COUNT_CAP). */
  totalExact: boolean;
}

export type MemberChange = { permissions?: Permission[]; disabled?: boolean };
export type MemberOutcome = { ok: true } | { ok: false; reason: 'notFound' | 'notAdmin' | MemberRefusal };

const BASE_COLUMNS = [
  'users.id',
  'users.name',
  'users.email',
  'users.password_hash',
  'users.last_sign_in_at',
  'users.disabled_at',
  'users.locked',
] as const;

/** Record an action on a member: their address is the target, their name (as it was) the detail. */
function recordMemberAudit(
  trx: Kysely<Database>,
  at: { teamId: string; actor: Actor; now: number },
  action: AuditAction,
  user: { email: string; name: string },
  detail: Record<string, unknown> = {},
): Promise<void> {
  return recordAudit(trx, { ...at, action, target: user.email, detail: { ...detail, name: user.name } });
}

/** Active owners of the team (not disabled). */
export async function activeOwners(trx: Kysely<Database>, teamId: string): Promise<number> {
  const row = await trx
    .selectFrom('user_permissions')
    .innerJoin('users', 'users.id', 'user_permissions.user_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_permissions.permission', '=', 'OWNER')
    .where('users.team_id', '=', teamId)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A member's state in the team, inside the caller's transaction; undefined when not a member. */
export async function memberStateOf(trx: Kysely<Database>, teamId: string, userId: string) {
  const user = await trx
    .selectFrom('users')
    .select(['id', 'name', 'email', 'disabled_at'])
    .where('id', '=', userId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  if (!user) return undefined;
  const permissions = await trx
    .selectFrom('user_permissions')
    .select('permission')
    .where('user_id', '=', userId)
    .execute();
  return {
    user,
    state: {
      id: user.id,
      permissions: permissions.map((p) => p.permission),
      disabled: user.disabled_at !== null,
    } satisfies MemberState,
  };
}

/**
 * Disable or enable a member in the caller's transaction (the team's row held, the change judged):
 * disabling ends every session of theirs; their tokens stop with the next call (lib/bearer.ts reads
 * the user again after any write) and their refresh tokens with the next refresh (the provider's
 * account lookup skips disabled members).
 */
export async function setMemberDisabled(
  trx: Kysely<Database>,
  at: { teamId: string; actor: Actor; now: number },
  user: { id: string; email: string; name: string },
  disabled: boolean,
): Promise<void> {
  await trx
    .updateTable('users')
    .set({ disabled_at: disabled ? at.now : null })
    .where('id', '=', user.id)
    .execute();
  if (disabled) await revokeUserSessions(trx, user.id, at.now);
  await recordMemberAudit(trx, at, disabled ? 'member.disabled' : 'member.enabled', user);
}

/** Remove a member in the caller's transaction: their sessions, identities and memberships go too. */
export async function deleteMember(
  trx: Kysely<Database>,
  at: { teamId: string; actor: Actor; now: number },
  user: { id: string; email: string; name: string },
): Promise<void> {
  await trx.deleteFrom('users').where('id', '=', user.id).execute();
  await recordMemberAudit(trx, at, 'member.removed', user);
}

/** A team's members as its admins see them: listed, searched, changed, removed. */
export function membersRepository(db: Kysely<Database>, dialect: Dialect) {
  /** Each listed member's permissions, sign-in providers and groups, three queries for the page. */
  async function complete(
    rows: Array<{
      id: string;
      name: string;
      email: string;
      password_hash: string | null;
      last_sign_in_at: number | null;
      disabled_at: number | null;
      locked: number;
    }>,
  ): Promise<MemberRow[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [permissions, providers, groups, failures, totp] = await Promise.all([
      db
        .selectFrom('user_permissions')
        .select(['user_id', 'permission'])
        .where('user_id', 'in', ids)
        .execute(),
      db
        .selectFrom('external_accounts')
        .select(['user_id', 'provider'])
        .where('user_id', 'in', ids)
        .execute(),
      db
        .selectFrom('group_members')
        .innerJoin('groups', 'groups.id', 'group_members.group_id')
        .select(['group_members.user_id', 'groups.id', 'groups.name', 'groups.name_key'])
        .where('group_members.user_id', 'in', ids)
        .execute(),
      // Failed sign-ins are counted per (team name, address), as the sign-in route sees them.
      db
        .selectFrom('login_failures')
        .innerJoin('teams', 'teams.name', 'login_failures.team_name')
        .innerJoin('users', (join) =>
          join.onRef('users.team_id', '=', 'teams.id').onRef('users.email', '=', 'login_failures.email'),
        )
        .select(['users.id as user_id', 'login_failures.locked_until'])
        .where('users.id', 'in', ids)
        .where('login_failures.locked_until', 'is not', null)
        .execute(),
      db
        .selectFrom('totp_secrets')
        .select('user_id')
        .where('user_id', 'in', ids)
        .where('confirmed_at', 'is not', null)
        .execute(),
    ]);
    const by = <T extends { user_id: string }>(list: T[]) => {
      const map = new Map<string, T[]>();
      for (const item of list) map.set(item.user_id, [...(map.get(item.user_id) ?? []), item]);
      return map;
    };
    const permissionsOf = by(permissions);
    const providersOf = by(providers);
    const groupsOf = by(groups);
    const lockedUntil = new Map(failures.map((row) => [row.user_id, Number(row.locked_until)]));
    const withTwoStep = new Set(totp.map((row) => row.user_id));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      hasPassword: row.password_hash !== null,
      lastSignInAt: row.last_sign_in_at,
      disabled: row.disabled_at !== null,
      permissions: (permissionsOf.get(row.id) ?? []).map((p) => p.permission as Permission).sort(),
      providers: (providersOf.get(row.id) ?? []).map((p) => p.provider).sort(),
      groups: (groupsOf.get(row.id) ?? [])
        .sort((a, b) => (a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : 0))
        .map((g) => ({ id: g.id, name: g.name })),
      adminLocked: row.locked !== 0,
      lockedUntil: lockedUntil.get(row.id) ?? null,
      twoStep: withTwoStep.has(row.id),
    }));
  }

  /** The whole team in name order, a page at a time (one range of users_team_name). */
  async function byName(teamId: string, after: Cursor | null, limit: number): Promise<MemberPage> {
    let query = db
      .selectFrom('users')
      .select([...BASE_COLUMNS, 'users.name_key'])
      .where('users.team_id', '=', teamId);
    if (after)
      query = query.where((eb) =>
        eb(eb.refTuple('users.name_key', 'users.id'), '>', eb.tuple(after.key, after.id)),
      );
    const rows = await query
      .orderBy('users.name_key')
      .orderBy('users.id')
      .limit(limit + 1)
      .execute();
    const team = await db
      .selectFrom('teams')
      .select('member_count')
      .where('id', '=', teamId)
      .executeTakeFirstOrThrow();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      members: await complete(page),
      next: rows.length > limit && last ? { by: 'name', key: last.name_key, id: last.id } : null,
      total: team.member_count,
      totalExact: true,
    };
  }

  /**
   * Members with a term starting with the query, in the order of the term that matched, a page at a
   * time: one range of member_terms_search, read from the index alone. A member with several matching
   * terms ("ada lovelace" and "ada@acme.test" for "ada") is listed once, under the first: a term whose
   * `shadow` reaches the query's length shares the query with an earlier term of the member.
   */
  async function byTerm(
    teamId: string,
    range: { from: string; to: string },
    after: Cursor | null,
    limit: number,
  ): Promise<MemberPage> {
    // The range of matching terms; a later page starts after its cursor instead (one lower bound, so
    // the index range starts there: with both, the database may start at the first and filter up to it).
    const start = after && after.key >= range.from ? after : null;
    const matches = (from: Cursor | null) => {
      const inRange = db
        .selectFrom('member_terms as t')
        .where('t.team_id', '=', teamId)
        .where('t.term', '<', range.to)
        // A member's later terms that an earlier one of theirs also matches are skipped (shadow).
        .where('t.shadow', '<', range.from.length);
      return from
        ? inRange.where((eb) => eb(eb.refTuple('t.term', 't.user_id'), '>', eb.tuple(from.key, from.id)))
        : inRange.where('t.term', '>=', range.from);
    };
    const page = matches(start)
      .innerJoin('users', 'users.id', 't.user_id')
      .select([...BASE_COLUMNS, 't.term']);
    const rows = await page
      .orderBy('t.term')
      .orderBy('t.user_id')
      .limit(limit + 1)
      .execute();
    const counted = await db
      .selectFrom(
        matches(null)
          .select('t.user_id')
          .limit(SEARCH_COUNT_CAP + 1)
          .as('m'),
      )
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const n = Number(counted.n);
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return {
      members: await complete(shown),
      next: rows.length > limit && last ? { by: 'term', key: last.term, id: last.id } : null,
      total: Math.min(n, SEARCH_COUNT_CAP),
      totalExact: n <= SEARCH_COUNT_CAP,
    };
  }

  /**
   * Change a member of the team (`next`: what they become, null when removed) by the rules of
   * domain/team-rules.ts, judged and applied in one transaction with the team's row held.
   */
  function guarded<Next extends MemberState | null>(
    teamId: string,
    actor: Actor & { owner: boolean },
    userId: string,
    nextOf: (state: MemberState) => Next,
    apply: (
      trx: Kysely<Database>,
      found: NonNullable<Awaited<ReturnType<typeof memberStateOf>>>,
      next: Next,
    ) => Promise<void>,
  ): Promise<MemberOutcome> {
    return db.transaction().execute(async (trx): Promise<MemberOutcome> => {
      await lockTeam(trx, dialect, teamId);
      // The actor's rights as they stand now, with the team held: another admin may have changed them
      // since the request's role check.
      const self = await memberStateOf(trx, teamId, actor.id);
      if (!self || self.state.disabled || !isAdmin(new Set(self.state.permissions)))
        return { ok: false, reason: 'notAdmin' };
      const owner = self.state.permissions.includes('OWNER');
      const found = await memberStateOf(trx, teamId, userId);
      if (!found) return { ok: false, reason: 'notFound' };
      const next = nextOf(found.state);
      const refusal = refuseMemberChange({
        actor: { id: actor.id, owner },
        target: found.state,
        next,
        activeOwners: await activeOwners(trx, teamId),
      });
      if (refusal) return { ok: false, reason: refusal };
      await apply(trx, found, next);
      return { ok: true };
    });
  }

  return {
    /**
     * A page of the team's members, `limit` long: all of them in name order, or those a search finds
     * (`query`: the start of any word of the name, or of the e-mail address, in any case and with or
     * without accents). `after` continues a list where its previous page ended; a cursor of the other
     * kind starts from the beginning.
     */
    list(teamId: string, query: string, after: Cursor | null, limit: number): Promise<MemberPage> {
      const range = prefixRange(query);
      if (!range) return byName(teamId, after?.by === 'name' ? after : null, limit);
      return byTerm(teamId, range, after?.by === 'term' ? after : null, limit);
    },

    /** One member of the team, as the list shows them; undefined for anyone else's id. */
    async find(teamId: string, userId: string): Promise<MemberRow | undefined> {
      const row = await db
        .selectFrom('users')
        .select(BASE_COLUMNS)
        .where('users.id', '=', userId)
        .where('users.team_id', '=', teamId)
        .executeTakeFirst();
      return row ? (await complete([row]))[0] : undefined;
    },

    /**
     * Change a member's permissions or disable (enable) them, with the team's row held, by the rules
     * of domain/team-rules.ts. Disabling ends every session of theirs in the same transaction; their
     * tokens stop with the next call (lib/bearer.ts reads the user again after any write).
     */
    update(
      teamId: string,
      actor: Actor & { owner: boolean },
      userId: string,
      change: MemberChange,
      now: number,
    ): Promise<MemberOutcome> {
      return guarded(
        teamId,
        actor,
        userId,
        (state) => ({
          id: state.id,
          permissions: change.permissions ?? state.permissions,
          disabled: change.disabled ?? state.disabled,
        }),
        async (trx, { user, state }, next) => {
          const before = [...state.permissions].sort();
          const after = [...new Set(next.permissions)].sort();
          if (change.permissions && before.join() !== after.join()) {
            await trx.deleteFrom('user_permissions').where('user_id', '=', userId).execute();
            if (after.length)
              await trx
                .insertInto('user_permissions')
                .values(after.map((permission) => ({ user_id: userId, permission })))
                .execute();
            const change = { from: before, to: after };
            await recordMemberAudit(trx, { teamId, actor, now }, 'member.permissions', user, change);
          }
          if (next.disabled !== state.disabled)
            await setMemberDisabled(trx, { teamId, actor, now }, user, next.disabled);
        },
      );
    },

    /** Remove a member from the team (their user, sessions, identities and memberships go with them). */
    remove(
      teamId: string,
      actor: Actor & { owner: boolean },
      userId: string,
      now: number,
    ): Promise<MemberOutcome> {
      return guarded(
        teamId,
        actor,
        userId,
        () => null,
        async (trx, { user }) => deleteMember(trx, { teamId, actor, now }, user),
      );
    },

    /**
     * Lift a member's lock: the failed sign-ins that locked them and an administrator's lock. Judged
     * like any change of the member (an admin does not act on an owner); nothing to lift is no change.
     */
    unlock(
      teamId: string,
      teamName: string,
      actor: Actor & { owner: boolean },
      userId: string,
      now: number,
    ): Promise<MemberOutcome> {
      return guarded(
        teamId,
        actor,
        userId,
        (state) => state,
        async (trx, { user }) => {
          const failures = await trx
            .deleteFrom('login_failures')
            .where('team_name', '=', teamName)
            .where('email', '=', user.email)
            .where('locked_until', '>', now)
            .executeTakeFirst();
          const locked = await trx
            .updateTable('users')
            .set({ locked: 0 })
            .where('id', '=', userId)
            .where('locked', '!=', 0)
            .executeTakeFirst();
          if (Number(failures.numDeletedRows) + Number(locked.numUpdatedRows) === 0) return;
          await recordMemberAudit(trx, { teamId, actor, now }, 'member.unlocked', user);
        },
      );
    },

    /** Owners of the team who are not disabled: the users screen says which changes would leave none. */
    activeOwners: (teamId: string) => activeOwners(db, teamId),
  };
}

export type MembersRepository = ReturnType<typeof membersRepository>;
