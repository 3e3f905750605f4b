import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EVENT_EXPORT_MAX_DAYS } from '../../../src/contract/team-rules';
import { exportEventsSchema } from '../../../src/contract/schemas/team';
import { INVALID_RANGE, exportStream, rangeOf } from '../lib/team-events';
import { adminOf } from '../plugins/auth';

const DAY_MS = 24 * 3600_000;
const TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const;

/** `2026-11-29T10:00:00.000Z` → `2026-11-29`: the file's name tells its range at a glance. */
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The export of the team's event log (docs/decisions/team-event-log.md), for its owners and admins: the
 * events of a range of at most EVENT_EXPORT_MAX_DAYS as CSV or JSON, streamed as an attachment.
 */
export const teamEventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos } = app.services;

  app.get(
    '/api/team/events/export',
    {
      config: {
        auth: 'bearer',
        role: 'admin',
        invalid: { from: 'invalidRange', to: 'invalidRange', format: 'invalidFormat' },
      },
      schema: exportEventsSchema,
    },
    async (request, reply) => {
      const { caller } = adminOf(request);
      const range = rangeOf(request.query.from, request.query.to);
      if (!range || range.from === undefined || range.to === undefined)
        return reply.code(400).send({ ...INVALID_RANGE, field: 'from' });
      if (range.to - range.from > EVENT_EXPORT_MAX_DAYS * DAY_MS)
        return reply.code(400).send({
          message: `a range of at most ${EVENT_EXPORT_MAX_DAYS} days`,
          code: 'rangeTooLong',
          field: 'to',
        });
      const { format } = request.query;
      // The team's name is lower-case letters, digits and dashes; anything else is dropped from the name.
      const team = caller.teamName.replace(/[^a-z0-9-]/g, '');
      const name = `events-${team}-${day(range.from)}-${day(range.to - 1)}.${format}`;
      const body = exportStream(repos.audit, caller.user.team_id, { from: range.from, to: range.to }, format);
      return (
        reply
          .header('content-type', TYPES[format])
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('cache-control', 'no-store')
          // A stream: Fastify sends it as it is, past the serialiser the schema's string type is for.
          .send(body as unknown as string)
      );
    },
  );
};
