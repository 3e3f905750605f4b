import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { GroupOutcome } from '../db/groups';
import { cleanName } from '../lib/names';
import { adminOf } from '../plugins/auth';
import { errors, NoBody } from '../../../src/contract/schemas/common';
import {
  Group,
  GroupBody,
  GroupList,
  GroupMemberParams,
  GroupParams,
} from '../../../src/contract/schemas/team';

const REFUSED = {
  notFound: { status: 404, message: 'no such group' },
  memberNotFound: { status: 404, message: 'no such member' },
  nameTaken: { status: 409, message: 'the team has a group of that name' },
} as const;

/**
 * Groups of the team's members, for its admins: create, rename, delete, add and remove members. A
 * member's groups are in their `groups` claim (id token, userinfo). Ids are looked up in the caller's
 * team only.
 */
export const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock } = app.services;
  const admin = { auth: 'bearer', role: 'admin' } as const;

  /** The answer to a group change: the group, or why not (sent here; the handler then returns). */
  const answer = (reply: FastifyReply, outcome: GroupOutcome, status = 200): void => {
    if (outcome.ok) {
      void reply.code(status).send(outcome.group);
      return;
    }
    const refused = REFUSED[outcome.reason];
    void reply.code(refused.status).send({
      message: refused.message,
      ...(outcome.reason === 'nameTaken' ? { code: 'nameTaken', field: 'name' } : {}),
    });
  };

  app.get(
    '/api/team/groups',
    { config: admin, schema: { response: { 200: GroupList, ...errors(400, 401, 403, 500) } } },
    async (request) => ({ groups: await repos.groups.list(adminOf(request).caller.user.team_id) }),
  );

  app.post(
    '/api/team/groups',
    {
      config: { ...admin, body: 'json' },
      schema: { body: GroupBody, response: { 201: Group, ...errors(400, 401, 403, 409, 413, 415, 500) } },
    },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const name = cleanName(request.body.name);
      if (!('name' in name))
        return reply.code(400).send({ message: name.message, code: 'invalidName', field: 'name' });
      return answer(
        reply,
        await repos.groups.create(caller.user.team_id, name.name, actor, clock.now()),
        201,
      );
    },
  );

  app.patch(
    '/api/team/groups/:id',
    {
      config: { ...admin, body: 'json' },
      schema: {
        params: GroupParams,
        body: GroupBody,
        response: { 200: Group, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const name = cleanName(request.body.name);
      if (!('name' in name))
        return reply.code(400).send({ message: name.message, code: 'invalidName', field: 'name' });
      const outcome = await repos.groups.rename(
        caller.user.team_id,
        request.params.id,
        name.name,
        actor,
        clock.now(),
      );
      answer(reply, outcome);
    },
  );

  app.delete(
    '/api/team/groups/:id',
    {
      config: admin,
      schema: {
        params: GroupParams,
        response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      if (!(await repos.groups.remove(caller.user.team_id, request.params.id, actor, clock.now())))
        return reply.code(404).send({ message: REFUSED.notFound.message });
      return reply.code(204).send();
    },
  );

  // Putting a member in (PUT, again: no change) and taking them out (DELETE) answer the group.
  for (const [method, change] of [
    ['PUT', repos.groups.addMember],
    ['DELETE', repos.groups.removeMember],
  ] as const) {
    app.route({
      method,
      url: '/api/team/groups/:id/members/:userId',
      config: admin,
      schema: {
        params: GroupMemberParams,
        response: { 200: Group, ...errors(400, 401, 403, 404, 413, 415, 500) },
      },
      handler: async (request, reply) => {
        const { caller, actor } = adminOf(request);
        const { id, userId } = request.params;
        answer(reply, await change(caller.user.team_id, id, userId, actor, clock.now()));
      },
    });
  }
};
