import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Session } from '../db/schema';
import { ACTIVITY_KEEP_MS, describeAgent, purgeActivity, recordActivity } from '../lib/activity';
import type { BearerCaller } from '../lib/bearer';
import { sha256 } from '../lib/crypto';
import { SESSION_IDLE_MS } from '../lib/session';
import { callerOf } from '../plugins/auth';
import {
  activitySchema,
  endOthersSchema,
  endSessionSchema,
  sessionsSchema,
  type ActivityEvent,
} from '../../../src/contract/schemas/sessions';

const ACTIVITY_PAGE_DEFAULT = 20;

/**
 * A session's handle on the sessions screen: derived from its public handle, so the list never shows
 * the handle the token exchange takes (nor, of course, the cookie) — only something to name it by.
 */
const handleOf = (session: Session) => sha256(`session-list:${session.public_id}`).slice(0, 32);

const iso = (time: number) => new Date(time).toISOString();

/** What the log may show of an event's detail: only the fields the schema names, of the right type. */
function eventOf(row: { id: string; kind: string; detail: string; created_at: number }): ActivityEvent {
  const detail = JSON.parse(row.detail) as Record<string, unknown>;
  const text = (key: string) => (typeof detail[key] === 'string' ? (detail[key] as string) : undefined);
  const orNull = (key: string) => (key in detail ? (text(key) ?? null) : undefined);
  const event: ActivityEvent = { id: row.id, kind: row.kind, at: iso(row.created_at) };
  const method = text('method');
  if (method !== undefined) event.method = method;
  if (typeof detail.success === 'boolean') event.success = detail.success;
  for (const key of ['browser', 'os', 'address'] as const) {
    const value = orNull(key);
    if (value !== undefined) event[key] = value;
  }
  const provider = text('provider');
  if (provider !== undefined) event.provider = provider;
  if (typeof detail.count === 'number') event.count = detail.count;
  const app = text('app');
  if (app !== undefined) event.app = app;
  return event;
}

/**
 * The signed-in user's sessions and security log (bearer routes; the user always from the token). A
 * session id that is not one of the caller's live sessions is a 404, whoever's it is. Ending a session
 * revokes its row: its cookie stops at once, and so do the tokens exchanged from it (the bearer lookup
 * reads the session's state again after any write; lib/bearer.ts).
 */
export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, config } = app.services;

  const liveSessions = (userId: string) => {
    const now = clock.now();
    return repos.activity.liveSessions(userId, now, now - SESSION_IDLE_MS);
  };

  app.get('/api/user/sessions', { config: { auth: 'bearer' }, schema: sessionsSchema }, async (request) => {
    const caller = callerOf(request);
    const sessions = await liveSessions(caller.user.id);
    return {
      sessions: sessions.map((session) => ({
        id: handleOf(session),
        ...describeAgent(session.user_agent),
        address: config.sessionAddresses ? (session.address ?? null) : null,
        createdAt: iso(session.created_at),
        lastActiveAt: iso(session.last_seen_at),
        current: caller.claims.sid === session.public_id,
      })),
    };
  });

  const describe = (session: Session) => {
    const agent = describeAgent(session.user_agent);
    return { browser: agent.browser, os: agent.os };
  };

  app.delete(
    '/api/user/sessions/:id',
    { config: { auth: 'bearer' }, schema: endSessionSchema },
    async (request, reply) => {
      const caller = callerOf(request);
      const session = (await liveSessions(caller.user.id)).find((s) => handleOf(s) === request.params.id);
      if (!session) return reply.code(404).send({ message: 'no such session', code: 'notFound' });
      if (session.public_id === caller.claims.sid)
        return reply.code(409).send({ message: 'sign out to end this session', code: 'current' });
      if (!(await repos.activity.endSession(caller.user.id, session.id_hash, clock.now())))
        return reply.code(404).send({ message: 'no such session', code: 'notFound' });
      await recordActivity(request, caller.user.id, 'sessionEnded', describe(session));
      return reply.code(204).send();
    },
  );

  /** The caller's own session (the one its token names), if it has one. */
  const ownSession = async (caller: BearerCaller) =>
    caller.claims.sid ? await repos.sessions.idHashOf(caller.claims.sid) : undefined;

  app.post(
    '/api/user/sessions/end-others',
    { config: { body: 'none', auth: 'bearer' }, schema: endOthersSchema },
    async (request) => {
      const caller = callerOf(request);
      const keep = await ownSession(caller);
      const ended = await repos.activity.endOtherSessions(caller.user.id, clock.now(), keep);
      if (ended > 0) await recordActivity(request, caller.user.id, 'otherSessionsEnded', { count: ended });
      return { ended };
    },
  );

  app.get('/api/user/activity', { config: { auth: 'bearer' }, schema: activitySchema }, async (request) => {
    const caller = callerOf(request);
    await purgeActivity(request);
    const limit = Number(request.query.limit ?? ACTIVITY_PAGE_DEFAULT);
    const since = clock.now() - ACTIVITY_KEEP_MS;
    const rows = await repos.activity.page(caller.user.id, since, limit + 1, request.query.cursor);
    const page = rows.slice(0, limit);
    return {
      events: page.map(eventOf),
      next: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
    };
  });
};
