import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Permission } from '../../../src/contract/permissions';
import { recordAudit } from './audit';
import type { Dialect } from './connect';
import { insertMember, writeTerms } from './members';
import { sortKey } from './member-terms';
import type { Database, User } from './schema';
import { lockTeam, seatsOf } from './teams';

/** Who the provider says signs in, as the connection maps its answer. */
export interface SsoPerson {
  teamId: string;
  connectionId: string;
  /** The provider's stable id for the person. */
  subject: string;
  email: string;
  /** A usable name (cleaned), or null when the provider sent none. */
  name: string | null;
  /** The groups it names, or null when the connection maps no groups. */
  groups: string[] | null;
  /** What a member made now gets (the connection's default permissions). */
  permissions: Permission[];
  language: string | null;
  now: number;
}

export type SsoSignInOutcome =
  { ok: true; user: User; joined: boolean } | { ok: false; reason: 'seatLimit' | 'otherIdentity' };

export const SSO_SOURCE_PREFIX = 'sso:';
/** The identity's provider name in `external_accounts`, and a membership's source in `group_members`. */
export const connectionSource = (connectionId: string) => `${SSO_SOURCE_PREFIX}${connectionId}`;

/**
 * Members as a team's connection signs them in, each sign-in in one transaction with the team's row
 * held (the seat count cannot be passed by two first sign-ins at once): the member the provider's
 * identity is linked to; else the member with that address, whom the identity is linked to now (the
 * team verified the domain, so its provider speaks for the address); else a new member — just in time,
 * with the connection's default permissions, refused when no seat is free, never half made. Then the
 * name and the groups as the provider has them: memberships it gave come and go with its answer, those
 * an admin gave stay.
 */
export function ssoMembersRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    signIn(person: SsoPerson): Promise<SsoSignInOutcome> {
      return db.transaction().execute(async (trx): Promise<SsoSignInOutcome> => {
        await lockTeam(trx, dialect, person.teamId);
        const provider = connectionSource(person.connectionId);
        const byIdentity = await trx
          .selectFrom('external_accounts')
          .innerJoin('users', 'users.id', 'external_accounts.user_id')
          .selectAll('users')
          .where('external_accounts.team_id', '=', person.teamId)
          .where('external_accounts.provider', '=', provider)
          .where('external_accounts.subject', '=', person.subject)
          .executeTakeFirst();
        let user: User | undefined = byIdentity;
        let joined = false;
        if (!user) {
          user = await trx
            .selectFrom('users')
            .selectAll()
            .where('team_id', '=', person.teamId)
            .where('email', '=', person.email)
            .executeTakeFirst();
          if (user) {
            const other = await trx
              .selectFrom('external_accounts')
              .select('subject')
              .where('user_id', '=', user.id)
              .where('provider', '=', provider)
              .executeTakeFirst();
            // The address's member is another person of the provider's (the address was reassigned).
            if (other) return { ok: false, reason: 'otherIdentity' };
            await trx
              .insertInto('external_accounts')
              .values({
                id: randomUUID(),
                user_id: user.id,
                team_id: person.teamId,
                provider,
                subject: person.subject,
                user_name: person.email,
                created_at: person.now,
              })
              .execute();
          } else {
            const seats = await seatsOf(trx, person.teamId, person.now);
            if (seats.used + 1 > seats.limit) return { ok: false, reason: 'seatLimit' };
            const name = person.name ?? person.email.split('@')[0]!.slice(0, 50);
            const id = await insertMember(trx, {
              teamId: person.teamId,
              email: person.email,
              name,
              passwordHash: null,
              permissions: person.permissions,
              language: person.language,
              now: person.now,
              identity: { provider, subject: person.subject, userName: person.email },
            });
            await recordAudit(trx, {
              teamId: person.teamId,
              actor: { id, name, email: person.email },
              action: 'member.joinedThroughSso',
              target: person.email,
              now: person.now,
            });
            user = await trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
            joined = true;
          }
        }
        if (!joined && person.name && person.name !== user.name) {
          await trx
            .updateTable('users')
            .set({ name: person.name, name_key: sortKey(person.name) })
            .where('id', '=', user.id)
            .execute();
          await writeTerms(trx, person.teamId, user.id, person.name, user.email);
          user = { ...user, name: person.name };
        }
        if (person.groups) await syncGroups(trx, person, user.id, provider);
        return { ok: true, user, joined };
      });
    },
  };
}

/**
 * The member's memberships from the provider: in each team group it names (by name, as the team's
 * names compare), out of each it gave before and names no more. Not audited one by one: the sign-in
 * is the event, and the provider the actor.
 */
async function syncGroups(trx: Kysely<Database>, person: SsoPerson, userId: string, source: string) {
  const keys = [...new Set(person.groups!.map(sortKey))];
  const named = keys.length
    ? await trx
        .selectFrom('groups')
        .select('id')
        .where('team_id', '=', person.teamId)
        .where('name_key', 'in', keys)
        .execute()
    : [];
  const ids = named.map((group) => group.id);
  let gone = trx.deleteFrom('group_members').where('user_id', '=', userId).where('source', '=', source);
  if (ids.length) gone = gone.where('group_id', 'not in', ids);
  await gone.execute();
  if (ids.length)
    await trx
      .insertInto('group_members')
      .values(ids.map((id) => ({ group_id: id, user_id: userId, source })))
      .onConflict((oc) => oc.doNothing())
      .execute();
}

export type SsoMembersRepository = ReturnType<typeof ssoMembersRepository>;
