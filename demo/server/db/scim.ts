import { randomUUID } from 'node:crypto';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { refuseMemberChange, type MemberRefusal } from '../../../src/contract/team-rules';
import { recordAudit, type Actor } from './audit';
import type { Dialect } from './connect';
import { fold, sortKey } from './member-terms';
import {
  activeOwners,
  deleteMember,
  insertMember,
  memberStateOf,
  setMemberDisabled,
  writeTerms,
} from './members';
import { rosterAnchors } from './roster-anchors';
import type { Database } from './schema';
import { lockTeam, seatsOf } from './teams';

/** One condition of a list's filter (all of them must hold); values as the member's columns hold them. */
export type UserCondition = {
  attribute: 'id' | 'userName' | 'email' | 'externalId' | 'displayName';
  value: string;
};
export type GroupCondition = { attribute: 'id' | 'displayName' | 'externalId' | 'member'; value: string };

/** A member as SCIM shows them. */
export interface ScimUserRow {
  id: string;
  email: string;
  name: string;
  disabled_at: number | null;
  created_at: number;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  updated_at: number | null;
  user_name: string | null;
}

/** A group as SCIM shows it; `members` only when asked for. */
export interface ScimGroupRow {
  id: string;
  name: string;
  created_at: number;
  external_id: string | null;
  updated_at: number | null;
  members?: Array<{ id: string; name: string }>;
}

/** What a directory sets of a member. */
export interface ScimUserFields {
  /** SCIM `userName` as sent: the address, or another name when the directory's e-mail says the address. */
  userName: string;
  /** userName as filters compare it (normalised like an address): unique per team. */
  userNameKey: string;
  email: string;
  name: string;
  givenName: string | null;
  familyName: string | null;
  externalId: string | null;
  active: boolean;
}

/** What a directory sets of a group: its members all at once, or what joins and leaves. */
export interface ScimGroupFields {
  name: string;
  externalId: string | null;
  members: { set: string[] } | { add: string[]; remove: string[] };
}

export type ScimRefusal = 'notFound' | 'exists' | 'externalIdTaken' | 'seatLimit' | 'memberNotFound';
export type ScimOutcome<T = string> =
  { ok: true; id: T; ticketIssued?: boolean } | { ok: false; reason: ScimRefusal | MemberRefusal };

/** A set-your-password ticket (the hash of its token) for a member a directory makes or enables. */
export interface PasswordTicket {
  tokenHash: string;
  expiresAt: number;
}

/** A directory as the audit trail names it (it is no member: no address). */
export const directoryActor = (directory: { id: string; name: string }): Actor => ({
  id: directory.id,
  name: directory.name,
  email: '',
});

type Page<T> = { total: number; rows: T[] };

/**
 * Members and groups as a team's directory (SCIM 2.0) reads and writes them. Lists are filtered by
 * equality on the indexed columns and paged by offset in a stable order (members by address, groups
 * by name; far into a long member list, from a kept address: db/roster-anchors.ts). Every change
 * runs in one transaction with the team's row held, by the team's rules: a member is made only when
 * a seat is free, never half; the team keeps an active owner; disabling ends the member's sessions
 * (members.ts, the admins' own path).
 */
export function scimRepository(db: Kysely<Database>, dialect: Dialect) {
  const anchors = rosterAnchors(db);
  const users = (executor: Kysely<Database>, teamId: string) =>
    executor
      .selectFrom('users')
      .leftJoin('scim_users', 'scim_users.user_id', 'users.id')
      .where('users.team_id', '=', teamId);

  const userColumns = [
    'users.id',
    'users.email',
    'users.name',
    'users.disabled_at',
    'users.created_at',
    'scim_users.external_id',
    'scim_users.given_name',
    'scim_users.family_name',
    'scim_users.updated_at',
    'scim_users.user_name',
  ] as const;

  // Each condition is one index lookup: an external id (unique per team) is found in its own index
  // first, so the member is read by id rather than among all of the team's.
  function whereUser<O>(
    query: SelectQueryBuilder<Database, 'users' | 'scim_users', O>,
    teamId: string,
    conditions: UserCondition[],
  ) {
    // The member the directory knows by this value of one of its own columns (unique per team).
    const scimUserId = (column: 'user_name_key' | 'external_id', value: string) =>
      db
        .selectFrom('scim_users as known')
        .select('known.user_id')
        .where('known.team_id', '=', teamId)
        .where(`known.${column}`, '=', value);
    for (const { attribute, value } of conditions) {
      if (attribute === 'id') query = query.where('users.id', '=', value);
      else if (attribute === 'email') query = query.where('users.email', '=', value);
      else if (attribute === 'userName')
        // The member the directory named so, else the one at that address it did not name otherwise
        // (a userName is unique per team either way): one id, so the member is read by it. An `or` of
        // the two sent SQLite along the team's whole index.
        query = query.where((eb) =>
          eb(
            'users.id',
            '=',
            eb.fn.coalesce(
              scimUserId('user_name_key', value),
              db
                .selectFrom('users as unnamed')
                .select('unnamed.id')
                .where('unnamed.team_id', '=', teamId)
                .where('unnamed.email', '=', value)
                .where((inner) =>
                  inner.not(
                    inner.exists(
                      inner
                        .selectFrom('scim_users as named')
                        .select('named.user_id')
                        .whereRef('named.user_id', '=', 'unnamed.id')
                        .where('named.user_name_key', 'is not', null)
                        .where('named.user_name_key', '!=', value),
                    ),
                  ),
                ),
            ),
          ),
        );
      else if (attribute === 'externalId')
        query = query.where('users.id', '=', scimUserId('external_id', value));
      else query = query.where('users.name_key', '=', sortKey(value));
    }
    return query;
  }

  const groups = (executor: Kysely<Database>, teamId: string) =>
    executor
      .selectFrom('groups')
      .leftJoin('scim_groups', 'scim_groups.group_id', 'groups.id')
      .where('groups.team_id', '=', teamId);

  const groupColumns = [
    'groups.id',
    'groups.name',
    'groups.created_at',
    'scim_groups.external_id',
    'scim_groups.updated_at',
  ] as const;

  function whereGroup<O>(
    query: SelectQueryBuilder<Database, 'groups' | 'scim_groups', O>,
    teamId: string,
    conditions: GroupCondition[],
  ) {
    for (const { attribute, value } of conditions) {
      if (attribute === 'id') query = query.where('groups.id', '=', value);
      else if (attribute === 'displayName') query = query.where('groups.name_key', '=', fold(value));
      else if (attribute === 'externalId')
        query = query.where(
          'groups.id',
          '=',
          db
            .selectFrom('scim_groups as byExternal')
            .select('byExternal.group_id')
            .where('byExternal.team_id', '=', teamId)
            .where('byExternal.external_id', '=', value),
        );
      else
        query = query.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('group_members')
              .select('group_members.user_id')
              .whereRef('group_members.group_id', '=', 'groups.id')
              .where('group_members.user_id', '=', value),
          ),
        );
    }
    return query;
  }

  /** The members of these groups, each group's by name. */
  async function membersOf(executor: Kysely<Database>, groupIds: string[]) {
    const map = new Map<string, Array<{ id: string; name: string }>>(groupIds.map((id) => [id, []]));
    if (groupIds.length === 0) return map;
    const rows = await executor
      .selectFrom('group_members')
      .innerJoin('users', 'users.id', 'group_members.user_id')
      .select(['group_members.group_id', 'users.id', 'users.name'])
      .where('group_members.group_id', 'in', groupIds)
      .orderBy('users.name_key')
      .orderBy('users.id')
      .execute();
    for (const row of rows) map.get(row.group_id)?.push({ id: row.id, name: row.name });
    return map;
  }

  /** Another member of the team already has this address or this external id. */
  async function clash(
    trx: Kysely<Database>,
    teamId: string,
    fields: Pick<ScimUserFields, 'email' | 'externalId' | 'userNameKey'>,
    except?: string,
  ): Promise<'exists' | 'externalIdTaken' | null> {
    let byEmail = trx
      .selectFrom('users')
      .select('id')
      .where('team_id', '=', teamId)
      .where('email', '=', fields.email);
    if (except) byEmail = byEmail.where('id', '!=', except);
    if (await byEmail.executeTakeFirst()) return 'exists';
    // Whoever answers to this userName: one the directory named so, or a member it did not name at
    // this address.
    let byUserName = whereUser(
      trx.selectFrom('users').select('users.id').where('users.team_id', '=', teamId),
      teamId,
      [{ attribute: 'userName', value: fields.userNameKey }],
    );
    if (except) byUserName = byUserName.where('users.id', '!=', except);
    if (await byUserName.executeTakeFirst()) return 'exists';
    if (fields.externalId === null) return null;
    let byExternal = trx
      .selectFrom('scim_users')
      .select('user_id')
      .where('team_id', '=', teamId)
      .where('external_id', '=', fields.externalId);
    if (except) byExternal = byExternal.where('user_id', '!=', except);
    return (await byExternal.executeTakeFirst()) ? 'externalIdTaken' : null;
  }

  async function writeScimUser(
    trx: Kysely<Database>,
    teamId: string,
    userId: string,
    fields: ScimUserFields,
    now: number,
  ) {
    const values = {
      external_id: fields.externalId,
      given_name: fields.givenName,
      family_name: fields.familyName,
      updated_at: now,
      user_name: fields.userName,
      user_name_key: fields.userNameKey,
    };
    await trx
      .insertInto('scim_users')
      .values({ user_id: userId, team_id: teamId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  }

  async function groupClash(
    trx: Kysely<Database>,
    teamId: string,
    fields: Pick<ScimGroupFields, 'name' | 'externalId'>,
    except?: string,
  ): Promise<'exists' | 'externalIdTaken' | null> {
    let byName = trx
      .selectFrom('groups')
      .select('id')
      .where('team_id', '=', teamId)
      .where('name_key', '=', fold(fields.name));
    if (except) byName = byName.where('id', '!=', except);
    if (await byName.executeTakeFirst()) return 'exists';
    if (fields.externalId === null) return null;
    let byExternal = trx
      .selectFrom('scim_groups')
      .select('group_id')
      .where('team_id', '=', teamId)
      .where('external_id', '=', fields.externalId);
    if (except) byExternal = byExternal.where('group_id', '!=', except);
    return (await byExternal.executeTakeFirst()) ? 'externalIdTaken' : null;
  }

  /** Apply a group's membership change; false when a member named is not the team's. */
  async function changeMembers(
    trx: Kysely<Database>,
    at: { teamId: string; actor: Actor; now: number },
    group: { id: string; name: string },
    change: ScimGroupFields['members'],
  ): Promise<boolean> {
    const current = new Set(
      (
        await trx.selectFrom('group_members').select('user_id').where('group_id', '=', group.id).execute()
      ).map((row) => row.user_id),
    );
    const wanted =
      'set' in change
        ? new Set(change.set)
        : new Set([...[...current].filter((id) => !change.remove.includes(id)), ...change.add]);
    const added = [...wanted].filter((id) => !current.has(id));
    const removed = [...current].filter((id) => !wanted.has(id));
    const people = new Map<string, { email: string; name: string }>();
    const touched = [...added, ...removed];
    for (let i = 0; i < touched.length; i += 500) {
      const rows = await trx
        .selectFrom('users')
        .select(['id', 'email', 'name'])
        .where('team_id', '=', at.teamId)
        .where('id', 'in', touched.slice(i, i + 500))
        .execute();
      for (const row of rows) people.set(row.id, row);
    }
    if (added.some((id) => !people.has(id))) return false;
    for (const [ids, action] of [
      [added, 'group.memberAdded'],
      [removed, 'group.memberRemoved'],
    ] as const) {
      for (const id of ids) {
        if (action === 'group.memberAdded')
          await trx.insertInto('group_members').values({ group_id: group.id, user_id: id }).execute();
        else
          await trx
            .deleteFrom('group_members')
            .where('group_id', '=', group.id)
            .where('user_id', '=', id)
            .execute();
        const person = people.get(id);
        await recordAudit(trx, {
          ...at,
          action,
          target: group.name,
          detail: { member: person?.email ?? id, name: person?.name ?? id },
        });
      }
    }
    return true;
  }

  return {
    async listUsers(
      teamId: string,
      conditions: UserCondition[],
      offset: number,
      limit: number,
    ): Promise<Page<ScimUserRow>> {
      const team =
        conditions.length === 0
          ? await db
              .selectFrom('teams')
              .select(['member_count', 'roster_version'])
              .where('id', '=', teamId)
              .executeTakeFirstOrThrow()
          : undefined;
      const start =
        team && limit > 0 ? await anchors.startOf(teamId, team.roster_version, offset) : undefined;
      // The page's ids are found first in the (team, address) index alone, then only they are read
      // whole: an offset far into the list steps over index entries, not over joined rows.
      let page = whereUser(
        db.selectFrom('users').select('users.id').where('users.team_id', '=', teamId),
        teamId,
        conditions,
      )
        .orderBy('users.email')
        .orderBy('users.id')
        .limit(limit);
      page =
        start && 'from' in start
          ? page.where('users.email', '>=', start.from).offset(start.skip)
          : page.offset(offset);
      const rows =
        limit === 0 || (start && 'empty' in start)
          ? []
          : await db
              .selectFrom('users')
              .leftJoin('scim_users', 'scim_users.user_id', 'users.id')
              .select(userColumns)
              // Not by team again: the planner would then walk the team's index instead of the ids.
              .where('users.id', 'in', page)
              .orderBy('users.email')
              .orderBy('users.id')
              .execute();
      const total = team
        ? team.member_count
        : (
            await whereUser(
              users(db, teamId).select((eb) => eb.fn.countAll<number>().as('n')),
              teamId,
              conditions,
            ).executeTakeFirstOrThrow()
          ).n;
      return { total: Number(total), rows };
    },

    findUser(teamId: string, userId: string): Promise<ScimUserRow | undefined> {
      return users(db, teamId).select(userColumns).where('users.id', '=', userId).executeTakeFirst();
    },

    /**
     * Make a member: refused when the address or external id is taken or no seat is free. With
     * `ticket`, a set-your-password ticket (its hash) is issued in the same transaction.
     */
    createUser(
      teamId: string,
      actor: Actor,
      fields: ScimUserFields,
      now: number,
      ticket?: PasswordTicket,
    ): Promise<ScimOutcome> {
      return db.transaction().execute(async (trx): Promise<ScimOutcome> => {
        await lockTeam(trx, dialect, teamId);
        const taken = await clash(trx, teamId, fields);
        if (taken) return { ok: false, reason: taken };
        const seats = await seatsOf(trx, teamId, now);
        if (seats.used + 1 > seats.limit) return { ok: false, reason: 'seatLimit' };
        const id = await insertMember(trx, {
          teamId,
          email: fields.email,
          name: fields.name,
          passwordHash: null,
          permissions: [],
          language: null,
          now,
          lastSignInAt: null,
        });
        await writeScimUser(trx, teamId, id, fields, now);
        await recordAudit(trx, {
          teamId,
          actor,
          action: 'member.provisioned',
          target: fields.email,
          detail: { name: fields.name },
          now,
        });
        if (!fields.active) await setMemberDisabled(trx, { teamId, actor, now }, { id, ...fields }, true);
        if (ticket) await issueTicket(trx, id, ticket, now);
        return { ok: true, id, ticketIssued: ticket !== undefined };
      });
    },

    /**
     * Set all of a member's fields (PUT, and PATCH once applied): the team keeps an active owner. With
     * `ticket`, a member enabled now who has no password yet gets a set-your-password ticket.
     */
    replaceUser(
      teamId: string,
      actor: Actor,
      userId: string,
      fields: ScimUserFields,
      now: number,
      ticket?: PasswordTicket,
    ): Promise<ScimOutcome> {
      return db.transaction().execute(async (trx): Promise<ScimOutcome> => {
        await lockTeam(trx, dialect, teamId);
        const found = await memberStateOf(trx, teamId, userId);
        if (!found) return { ok: false, reason: 'notFound' };
        const taken = await clash(trx, teamId, fields, userId);
        if (taken) return { ok: false, reason: taken };
        const next = { ...found.state, disabled: !fields.active };
        const refusal = refuseMemberChange({
          // A directory acts with an owner's reach and is never the member itself.
          actor: { id: actor.id, owner: true },
          target: found.state,
          next,
          activeOwners: await activeOwners(trx, teamId),
        });
        if (refusal) return { ok: false, reason: refusal };
        const { user } = found;
        if (user.email !== fields.email || user.name !== fields.name) {
          await trx
            .updateTable('users')
            .set({ email: fields.email, name: fields.name, name_key: sortKey(fields.name) })
            .where('id', '=', userId)
            .execute();
          await writeTerms(trx, teamId, userId, fields.name, fields.email);
          await recordAudit(trx, {
            teamId,
            actor,
            action: 'member.detailsChanged',
            target: fields.email,
            detail: { name: fields.name, from: { email: user.email, name: user.name } },
            now,
          });
        }
        await writeScimUser(trx, teamId, userId, fields, now);
        if (next.disabled !== found.state.disabled)
          await setMemberDisabled(
            trx,
            { teamId, actor, now },
            { ...user, ...fields, id: userId },
            next.disabled,
          );
        const enabled = found.state.disabled && !next.disabled;
        const passwordless =
          enabled &&
          ticket !== undefined &&
          (
            await trx
              .selectFrom('users')
              .select('password_hash')
              .where('id', '=', userId)
              .executeTakeFirstOrThrow()
          ).password_hash === null;
        if (passwordless) await issueTicket(trx, userId, ticket, now);
        return { ok: true, id: userId, ticketIssued: passwordless };
      });
    },

    /** Remove a member (the admins' path): never the team's last active owner. */
    removeUser(teamId: string, actor: Actor, userId: string, now: number): Promise<ScimOutcome> {
      return db.transaction().execute(async (trx): Promise<ScimOutcome> => {
        await lockTeam(trx, dialect, teamId);
        const found = await memberStateOf(trx, teamId, userId);
        if (!found) return { ok: false, reason: 'notFound' };
        const refusal = refuseMemberChange({
          actor: { id: actor.id, owner: true },
          target: found.state,
          next: null,
          activeOwners: await activeOwners(trx, teamId),
        });
        if (refusal) return { ok: false, reason: refusal };
        await deleteMember(trx, { teamId, actor, now }, found.user);
        return { ok: true, id: userId };
      });
    },

    async listGroups(
      teamId: string,
      conditions: GroupCondition[],
      offset: number,
      limit: number,
      withMembers: boolean,
    ): Promise<Page<ScimGroupRow>> {
      const rows: ScimGroupRow[] =
        limit === 0
          ? []
          : await whereGroup(groups(db, teamId).select(groupColumns), teamId, conditions)
              .orderBy('groups.name_key')
              .orderBy('groups.id')
              .limit(limit)
              .offset(offset)
              .execute();
      const counted = await whereGroup(
        groups(db, teamId).select((eb) => eb.fn.countAll<number>().as('n')),
        teamId,
        conditions,
      ).executeTakeFirstOrThrow();
      if (withMembers) {
        const members = await membersOf(
          db,
          rows.map((row) => row.id),
        );
        for (const row of rows) row.members = members.get(row.id) ?? [];
      }
      return { total: Number(counted.n), rows };
    },

    async findGroup(
      teamId: string,
      groupId: string,
      withMembers: boolean,
    ): Promise<ScimGroupRow | undefined> {
      const row: ScimGroupRow | undefined = await groups(db, teamId)
        .select(groupColumns)
        .where('groups.id', '=', groupId)
        .executeTakeFirst();
      if (row && withMembers) row.members = (await membersOf(db, [groupId])).get(groupId) ?? [];
      return row;
    },

    createGroup(teamId: string, actor: Actor, fields: ScimGroupFields, now: number): Promise<ScimOutcome> {
      return db
        .transaction()
        .execute(async (trx): Promise<ScimOutcome> => {
          const taken = await groupClash(trx, teamId, fields);
          if (taken) return { ok: false, reason: taken };
          const id = randomUUID();
          await trx
            .insertInto('groups')
            .values({ id, team_id: teamId, name: fields.name, name_key: fold(fields.name), created_at: now })
            .execute();
          await trx
            .insertInto('scim_groups')
            .values({ group_id: id, team_id: teamId, external_id: fields.externalId, updated_at: now })
            .execute();
          await recordAudit(trx, { teamId, actor, action: 'group.created', target: fields.name, now });
          const group = { id, name: fields.name };
          if (!(await changeMembers(trx, { teamId, actor, now }, group, fields.members))) {
            // Nothing of the group stays: the whole request is refused.
            throw new MemberNotFound();
          }
          return { ok: true, id };
        })
        .catch((error: unknown) => {
          if (error instanceof MemberNotFound) return { ok: false, reason: 'memberNotFound' } as const;
          throw error;
        });
    },

    /** Change a group's name, external id and members (all at once, or what joins and leaves). */
    replaceGroup(
      teamId: string,
      actor: Actor,
      groupId: string,
      fields: ScimGroupFields,
      now: number,
    ): Promise<ScimOutcome> {
      return db
        .transaction()
        .execute(async (trx): Promise<ScimOutcome> => {
          const group = await trx
            .selectFrom('groups')
            .select(['id', 'name'])
            .where('id', '=', groupId)
            .where('team_id', '=', teamId)
            .executeTakeFirst();
          if (!group) return { ok: false, reason: 'notFound' };
          const taken = await groupClash(trx, teamId, fields, groupId);
          if (taken) return { ok: false, reason: taken };
          if (group.name !== fields.name) {
            await trx
              .updateTable('groups')
              .set({ name: fields.name, name_key: fold(fields.name) })
              .where('id', '=', groupId)
              .execute();
            await recordAudit(trx, {
              teamId,
              actor,
              action: 'group.renamed',
              target: fields.name,
              detail: { from: group.name },
              now,
            });
          }
          const values = { external_id: fields.externalId, updated_at: now };
          await trx
            .insertInto('scim_groups')
            .values({ group_id: groupId, team_id: teamId, ...values })
            .onConflict((oc) => oc.column('group_id').doUpdateSet(values))
            .execute();
          const named = { id: groupId, name: fields.name };
          if (!(await changeMembers(trx, { teamId, actor, now }, named, fields.members)))
            throw new MemberNotFound();
          return { ok: true, id: groupId };
        })
        .catch((error: unknown) => {
          if (error instanceof MemberNotFound) return { ok: false, reason: 'memberNotFound' } as const;
          throw error;
        });
    },
  };
}

/** A set-your-password ticket in the caller's transaction, superseding the member's earlier ones. */
async function issueTicket(trx: Kysely<Database>, userId: string, ticket: PasswordTicket, now: number) {
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
      token_hash: ticket.tokenHash,
      created_at: now,
      expires_at: ticket.expiresAt,
      used_at: null,
      superseded_at: null,
    })
    .execute();
}

/** Thrown to roll a group's change back when it names someone who is not a member of the team. */
class MemberNotFound extends Error {}

export type ScimRepository = ReturnType<typeof scimRepository>;
