import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { decodeCursor, encodeCursor, type MemberOutcome, type MemberRow } from '../db/members';
import { kindOfName } from '../lib/external';
import { SSO_SOURCE_PREFIX } from '../db/sso-members';
import { adminOf } from '../plugins/auth';
import { errors, NoBody } from '../../../src/contract/schemas/common';
import {
  Member,
  MEMBER_PAGE_DEFAULT,
  MemberList,
  MemberParams,
  MemberPatch,
  MemberQuery,
  type SignInMethod,
} from '../../../src/contract/schemas/team';

/** A member as the API shows them (schemas/team.ts `Member`). */
export function toMember(row: MemberRow, now: number): Member {
  const providers = row.providers.map(kindOfName).filter((kind) => kind !== null);
  // An identity of the team's single sign-on (db/sso-members.ts), however many connections.
  const sso = row.providers.some((provider) => provider.startsWith(SSO_SOURCE_PREFIX));
  const methods: SignInMethod[] = [
    ...(row.hasPassword ? (['password'] as const) : []),
    ...providers,
    ...(sso ? (['sso'] as const) : []),
  ];
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    permissions: row.permissions,
    methods,
    lastSignInAt: row.lastSignInAt === null ? null : new Date(row.lastSignInAt).toISOString(),
    disabled: row.disabled,
    groups: row.groups,
    locked:
      row.lockedUntil !== null && row.lockedUntil > now
        ? { reason: 'failedSignIns', until: new Date(row.lockedUntil).toISOString() }
        : row.adminLocked
          ? { reason: 'admin', until: null }
          : null,
    twoStep: row.twoStep,
  };
}

const REFUSED = {
  notFound: { status: 404, message: 'no such member' },
  notAdmin: { status: 403, message: 'team admin rights are required' },
  notOwner: { status: 403, message: 'only a team owner may change or remove an owner' },
  self: { status: 409, message: 'you cannot disable or remove yourself, nor drop your own admin rights' },
  lastOwner: { status: 409, message: 'the team must keep an owner who is not disabled' },
} as const;

/**
 * The team's members, for its admins (design §7): the list (search, paging), permissions, disable and
 * enable, remove — every id looked up in the caller's team only.
 */
export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock } = app.services;

  /** A change's answer: the refusal, or the member as they now are. */
  async function answer(reply: FastifyReply, teamId: string, userId: string, outcome: MemberOutcome) {
    if (!outcome.ok) {
      const refused = REFUSED[outcome.reason];
      return reply.code(refused.status).send({ message: refused.message, code: outcome.reason });
    }
    const member = await repos.members.find(teamId, userId);
    if (!member) return reply.code(404).send({ message: 'no such member' });
    return toMember(member, clock.now());
  }

  app.get(
    '/api/team/members',
    {
      config: { auth: 'bearer', role: 'admin', invalid: { limit: 'invalidLimit', cursor: 'invalidCursor' } },
      schema: { querystring: MemberQuery, response: { 200: MemberList, ...errors(400, 401, 403, 500) } },
    },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const { q = '', cursor, limit } = request.query;
      const after = cursor === undefined ? null : decodeCursor(cursor);
      if (cursor !== undefined && !after)
        return reply
          .code(400)
          .send({ message: 'cursor is not valid', code: 'invalidCursor', field: 'cursor' });
      const page = await repos.members.list(
        caller.user.team_id,
        q,
        after,
        limit === undefined ? MEMBER_PAGE_DEFAULT : Number(limit),
      );
      return {
        members: page.members.map((row) => toMember(row, clock.now())),
        next: page.next ? encodeCursor(page.next) : null,
        total: page.total,
        totalExact: page.totalExact,
        callerIsOwner: actor.owner,
        activeOwners: await repos.members.activeOwners(caller.user.team_id),
      };
    },
  );

  app.patch(
    '/api/team/members/:id',
    {
      config: { body: 'json', auth: 'bearer', role: 'admin', invalid: { permissions: 'invalidPermission' } },
      schema: {
        params: MemberParams,
        body: MemberPatch,
        response: { 200: Member, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const teamId = caller.user.team_id;
      const outcome = await repos.members.update(teamId, actor, request.params.id, request.body, clock.now());
      return answer(reply, teamId, request.params.id, outcome);
    },
  );

  app.post(
    '/api/team/members/:id/unlock',
    {
      config: { auth: 'bearer', role: 'admin' },
      schema: {
        params: MemberParams,
        response: { 200: Member, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const teamId = caller.user.team_id;
      const team = await repos.teams.findById(teamId);
      const outcome = team
        ? await repos.members.unlock(teamId, team.name, actor, request.params.id, clock.now())
        : ({ ok: false, reason: 'notFound' } as const);
      return answer(reply, teamId, request.params.id, outcome);
    },
  );

  app.delete(
    '/api/team/members/:id',
    {
      config: { auth: 'bearer', role: 'admin' },
      schema: {
        params: MemberParams,
        response: { 204: NoBody, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const outcome = await repos.members.remove(caller.user.team_id, actor, request.params.id, clock.now());
      if (!outcome.ok) {
        const refused = REFUSED[outcome.reason];
        return reply.code(refused.status).send({ message: refused.message, code: outcome.reason });
      }
      return reply.code(204).send();
    },
  );
};
