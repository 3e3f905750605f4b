import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { StreamRow } from '../db/event-streams';
import { newStreamSecret, secretContext, streamUrlProblem } from '../lib/event-streams';
import { adminOf } from '../plugins/auth';
import { STREAMS_MAX } from '../../../src/contract/event-streams';
import {
  createStreamSchema,
  deleteStreamSchema,
  listStreamsSchema,
  rotateStreamSecretSchema,
  streamStateSchema,
  testStreamSchema,
  type EventStream,
} from '../../../src/contract/schemas/event-streams';

const NOT_FOUND = { message: 'no such endpoint', code: 'notFound' } as const;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The endpoint as its admins see it (schemas/event-streams.ts `EventStream`): never its secret. */
function streamView(row: StreamRow): EventStream {
  const failing = row.failing_since !== null;
  return {
    id: row.id,
    url: row.url,
    state: row.state,
    createdAt: new Date(row.created_at).toISOString(),
    rotatedAt: iso(row.rotated_at),
    lastDeliveryAt: iso(row.last_delivery_at),
    failingSince: iso(row.failing_since),
    lastProblem: row.last_problem,
    lastStatus: row.last_status,
    nextAttemptAt: failing && row.state === 'active' ? iso(row.next_attempt_at) : null,
    disabledAt: iso(row.disabled_at),
    pending: row.pending,
  };
}

/**
 * A team's event streaming endpoints, for its owners and admins (docs/decisions/event-streaming.md):
 * list, add, a new secret, pause, resume, a test event, remove. A secret is answered once, in clear,
 * when it is made; it is kept sealed. Ids are looked up in the caller's team only; every change is in
 * the team's event log.
 */
export const eventStreamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, config, keys, streams } = app.services;
  const admin = { auth: 'bearer', role: 'admin' } as const;
  const allowHttp = new URL(config.publicUrl).protocol === 'http:';

  app.get('/api/team/streams', { config: admin, schema: listStreamsSchema }, async (request) => {
    const rows = await repos.eventStreams.list(adminOf(request).caller.user.team_id);
    return { streams: rows.map(streamView) };
  });

  app.post(
    '/api/team/streams',
    { config: { ...admin, body: 'json' }, schema: createStreamSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const url = request.body.url.trim();
      const problem = streamUrlProblem(url, allowHttp);
      if (problem)
        return reply
          .code(400)
          .send({ message: 'this address cannot receive events', code: problem, field: 'url' });
      const id = randomUUID();
      const secret = newStreamSecret();
      const row = await repos.eventStreams.create(
        caller.user.team_id,
        { id, url, secret: keys.sealer.seal(secret, secretContext(id)) },
        STREAMS_MAX,
        actor,
        clock.now(),
      );
      if (!row)
        return reply
          .code(409)
          .send({ message: `a team has at most ${STREAMS_MAX} endpoints`, code: 'tooManyStreams' });
      return reply.code(201).send({ stream: streamView(row), secret });
    },
  );

  app.post(
    '/api/team/streams/:id/secret',
    { config: admin, schema: rotateStreamSecretSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const { id } = request.params;
      const secret = newStreamSecret();
      const row = await repos.eventStreams.rotate(
        caller.user.team_id,
        id,
        keys.sealer.seal(secret, secretContext(id)),
        (before) => before.secret,
        actor,
        clock.now(),
      );
      if (!row) return reply.code(404).send(NOT_FOUND);
      return { stream: streamView(row), secret };
    },
  );

  app.post(
    '/api/team/streams/:id/pause',
    { config: admin, schema: streamStateSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const row = await repos.eventStreams.pause(caller.user.team_id, request.params.id, actor, clock.now());
      if (!row) return reply.code(404).send(NOT_FOUND);
      return { stream: streamView(row) };
    },
  );

  app.post(
    '/api/team/streams/:id/resume',
    { config: admin, schema: streamStateSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const row = await repos.eventStreams.resume(caller.user.team_id, request.params.id, actor, clock.now());
      if (!row) return reply.code(404).send(NOT_FOUND);
      // What waited for it goes now, not at the next round.
      void streams.round();
      return { stream: streamView(row) };
    },
  );

  app.post(
    '/api/team/streams/:id/test',
    { config: admin, schema: testStreamSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const stream = await repos.eventStreams.get(caller.user.team_id, request.params.id);
      if (!stream) return reply.code(404).send(NOT_FOUND);
      const result = await streams.test(stream, actor);
      const row = await repos.eventStreams.tested(caller.user.team_id, stream.id, actor, clock.now());
      if (!row) return reply.code(404).send(NOT_FOUND);
      return {
        stream: streamView(row),
        result: result.ok
          ? { ok: true, status: result.status, problem: null }
          : { ok: false, status: result.status, problem: result.problem },
      };
    },
  );

  app.delete(
    '/api/team/streams/:id',
    { config: admin, schema: deleteStreamSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      if (!(await repos.eventStreams.remove(caller.user.team_id, request.params.id, actor, clock.now())))
        return reply.code(404).send(NOT_FOUND);
      return reply.code(204).send();
    },
  );
};
