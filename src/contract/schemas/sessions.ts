import { Type, type Static } from 'typebox';
import { errors, NoBody, type RouteSchema } from './common';

const closed = { additionalProperties: false } as const;
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** `GET /api/user/sessions`: the caller's live sessions, newest first. */
export const SessionEntry = Type.Object(
  {
    /** An opaque handle for this list (never the session's cookie or its token handle). */
    id: Type.String(),
    browser: Nullable(Type.String()),
    os: Nullable(Type.String()),
    /** `mobile`, `tablet`… ; null for a desktop or when unknown. */
    device: Nullable(Type.String()),
    /** The address it signed in from, when the server keeps them (SESSION_ADDRESSES). */
    address: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    lastActiveAt: Type.String({ format: 'date-time' }),
    /** The session the caller's token came from ("this device"). */
    current: Type.Boolean(),
  },
  closed,
);
export type SessionEntry = Static<typeof SessionEntry>;
export const SessionList = Type.Object({ sessions: Type.Array(SessionEntry) }, closed);
export type SessionList = Static<typeof SessionList>;
export const sessionsSchema = {
  response: { 200: SessionList, ...errors(400, 401, 500) },
} satisfies RouteSchema;

/** `DELETE /api/user/sessions/:id`: end one of the caller's other sessions. */
export const SessionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, closed);
export const endSessionSchema = {
  params: SessionParams,
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
} satisfies RouteSchema;

/** `POST /api/user/sessions/end-others`: end every session but the caller's own. */
export const EndOthersReply = Type.Object({ ended: Type.Integer({ minimum: 0 }) }, closed);
export type EndOthersReply = Static<typeof EndOthersReply>;
export const endOthersSchema = {
  response: { 200: EndOthersReply, ...errors(400, 401, 403, 413, 415, 500) },
} satisfies RouteSchema;

/** `GET /api/user/activity`: the caller's security log, newest first, a page at a time. */
export const ActivityQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    limit: Type.Optional(Type.String({ pattern: '^(100|[1-9][0-9]?)$' })),
  },
  closed,
);
export const ActivityEvent = Type.Object(
  {
    id: Type.String(),
    /** An open list: `signIn`, `passwordChanged`, `sessionEnded`…; a screen shows unknown kinds generally. */
    kind: Type.String(),
    at: Type.String({ format: 'date-time' }),
    /** Sign-ins: `password`, `google`, `azure`, `auth0`, `apple`, `invitation`. */
    method: Type.Optional(Type.String()),
    success: Type.Optional(Type.Boolean()),
    browser: Type.Optional(Nullable(Type.String())),
    os: Type.Optional(Nullable(Type.String())),
    address: Type.Optional(Nullable(Type.String())),
    /** Providers connected or disconnected. */
    provider: Type.Optional(Type.String()),
    /** Sessions ended at once ("sign out everywhere else"). */
    count: Type.Optional(Type.Integer()),
    /** An app allowed to access the account, or whose access was removed: its name. */
    app: Type.Optional(Type.String()),
  },
  closed,
);
export type ActivityEvent = Static<typeof ActivityEvent>;
export const ActivityPage = Type.Object(
  { events: Type.Array(ActivityEvent), next: Nullable(Type.String()) },
  closed,
);
export type ActivityPage = Static<typeof ActivityPage>;
export const activitySchema = {
  querystring: ActivityQuery,
  response: { 200: ActivityPage, ...errors(400, 401, 500) },
} satisfies RouteSchema;
