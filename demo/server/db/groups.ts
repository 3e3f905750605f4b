import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordAudit, type Actor } from './audit';
import { fold } from './member-terms';
import { keptUntilChange } from './prepared';
import type { Database, User } from './schema';

export interface GroupView {
  id: string;
  name: string;
  members: Array<{ id: string; name: string; email: string }>;
}

export type GroupOutcome =
  { ok: true; group: GroupView } | { ok: false; reason: 'notFound' | 'nameTaken' | 'memberNotFound' };

/** A group's name is unique in its team regardless of case and accents. */
const groupKey = (name: string) => fold(name);

/** Groups of a team's members. */
export function groupsRepository(db: Kysely<Database>) {
  // The `groups` claim of userinfo, which runs on every page of the apps: on SQLite kept per user object
  // (the token holder's, itself kept until any row changes: lib/bearer.ts) until any row changes.
  const namesOf = keptUntilChange(db, async (user: Readonly<Pick<User, 'id'>>): Promise<string[]> => {
    const rows = await db
      .selectFrom('group_members')
      .innerJoin('groups', 'groups.id', 'group_members.group_id')
      .select(['groups.name', 'groups.name_key'])
      .where('group_members.user_id', '=', user.id)
      .orderBy('groups.name_key')
      .execute();
    return rows.map((row) => row.name);
  });

  /** The group with its members, if it is the team's. */
  async function view(
    executor: Kysely<Database>,
    teamId: string,
    groupId: string,
  ): Promise<GroupView | undefined> {
    const group = await executor
      .selectFrom('groups')
      .select(['id', 'name'])
      .where('id', '=', groupId)
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    if (!group) return undefined;
    const members = await executor
      .selectFrom('group_members')
      .innerJoin('users', 'users.id', 'group_members.user_id')
      .select(['users.id', 'users.name', 'users.email'])
      .where('group_members.group_id', '=', groupId)
      .orderBy('users.name_key')
      .orderBy('users.id')
      .execute();
    return { ...group, members };
  }

  /** Put a member of the team into a group of the team, or take them out; recorded when it changed anything. */
  function changeMembership(
    teamId: string,
    groupId: string,
    userId: string,
    actor: Actor,
    now: number,
    action: 'group.memberAdded' | 'group.memberRemoved',
  ): Promise<GroupOutcome> {
    return db.transaction().execute(async (trx): Promise<GroupOutcome> => {
      const group = await view(trx, teamId, groupId);
      if (!group) return { ok: false, reason: 'notFound' };
      const user = await trx
        .selectFrom('users')
        .select(['id', 'email', 'name'])
        .where('id', '=', userId)
        .where('team_id', '=', teamId)
        .executeTakeFirst();
      if (!user) return { ok: false, reason: 'memberNotFound' };
      const changed =
        action === 'group.memberAdded'
          ? Number(
              (
                await trx
                  .insertInto('group_members')
                  .values({ group_id: groupId, user_id: userId })
                  .onConflict((oc) => oc.doNothing())
                  .executeTakeFirst()
              ).numInsertedOrUpdatedRows ?? 0n,
            )
          : Number(
              (
                await trx
                  .deleteFrom('group_members')
                  .where('group_id', '=', groupId)
                  .where('user_id', '=', userId)
                  .executeTakeFirst()
              ).numDeletedRows,
            );
      if (changed === 1) {
        await recordAudit(trx, {
          teamId,
          actor,
          action,
          target: group.name,
          // The member's name as it was then: the trail reads "… added Bob Stone to Platform Engineering".
          detail: { member: user.email, name: user.name },
          now,
        });
      }
      return { ok: true, group: (await view(trx, teamId, groupId))! };
    });
  }

  async function taken(trx: Kysely<Database>, teamId: string, key: string, except?: string) {
    let query = trx
      .selectFrom('groups')
      .select('id')
      .where('team_id', '=', teamId)
      .where('name_key', '=', key);
    if (except) query = query.where('id', '!=', except);
    return (await query.executeTakeFirst()) !== undefined;
  }

  return {
    /** The team's groups with their members, by name. */
    async list(teamId: string): Promise<GroupView[]> {
      const groups = await db
        .selectFrom('groups')
        .select(['id', 'name'])
        .where('team_id', '=', teamId)
        .orderBy('name_key')
        .orderBy('id')
        .execute();
      if (groups.length === 0) return [];
      const members = await db
        .selectFrom('group_members')
        .innerJoin('users', 'users.id', 'group_members.user_id')
        .innerJoin('groups', 'groups.id', 'group_members.group_id')
        .select(['group_members.group_id', 'users.id', 'users.name', 'users.email'])
        .where('groups.team_id', '=', teamId)
        .orderBy('users.name_key')
        .orderBy('users.id')
        .execute();
      return groups.map((group) => ({
        ...group,
        members: members
          .filter((member) => member.group_id === group.id)
          .map(({ id, name, email }) => ({ id, name, email })),
      }));
    },

    find: (teamId: string, groupId: string) => view(db, teamId, groupId),

    /** The names of the user's groups (the `groups` claim), by name. */
    namesOf: (user: Readonly<Pick<User, 'id'>>) => namesOf(user).then((names) => names ?? []),

    create(teamId: string, name: string, actor: Actor, now: number): Promise<GroupOutcome> {
      return db.transaction().execute(async (trx): Promise<GroupOutcome> => {
        const key = groupKey(name);
        if (await taken(trx, teamId, key)) return { ok: false, reason: 'nameTaken' };
        const id = randomUUID();
        await trx
          .insertInto('groups')
          .values({ id, team_id: teamId, name, name_key: key, created_at: now })
          .execute();
        await recordAudit(trx, { teamId, actor, action: 'group.created', target: name, now });
        return { ok: true, group: { id, name, members: [] } };
      });
    },

    rename(teamId: string, groupId: string, name: string, actor: Actor, now: number): Promise<GroupOutcome> {
      return db.transaction().execute(async (trx): Promise<GroupOutcome> => {
        const before = await view(trx, teamId, groupId);
        if (!before) return { ok: false, reason: 'notFound' };
        const key = groupKey(name);
        if (await taken(trx, teamId, key, groupId)) return { ok: false, reason: 'nameTaken' };
        if (before.name !== name) {
          await trx.updateTable('groups').set({ name, name_key: key }).where('id', '=', groupId).execute();
          await recordAudit(trx, {
            teamId,
            actor,
            action: 'group.renamed',
            target: name,
            detail: { from: before.name },
            now,
          });
        }
        return { ok: true, group: { ...before, name } };
      });
    },

    /** Delete a group of the team; whether there was one. */
    remove(teamId: string, groupId: string, actor: Actor, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom('groups')
          .where('id', '=', groupId)
          .where('team_id', '=', teamId)
          .returning('name')
          .executeTakeFirst();
        if (!row) return false;
        await recordAudit(trx, { teamId, actor, action: 'group.deleted', target: row.name, now });
        return true;
      });
    },

    /** Add a member of the team to a group of the team (nothing changes if they are in it already). */
    addMember: (teamId: string, groupId: string, userId: string, actor: Actor, now: number) =>
      changeMembership(teamId, groupId, userId, actor, now, 'group.memberAdded'),

    /** Take a member of the team out of a group of the team. */
    removeMember: (teamId: string, groupId: string, userId: string, actor: Actor, now: number) =>
      changeMembership(teamId, groupId, userId, actor, now, 'group.memberRemoved'),
  };
}

export type GroupsRepository = ReturnType<typeof groupsRepository>;
