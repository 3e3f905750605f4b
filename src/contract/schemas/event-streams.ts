import { Type, type Static } from 'typebox';
import { STREAM_PROBLEMS, STREAM_STATES, STREAM_URL_LENGTH } from '../event-streams';
import { errors, NoBody, type RouteSchema } from './common';

const closed = { additionalProperties: false } as const;
const time = Type.String({ format: 'date-time' });
const maybeTime = Type.Union([time, Type.Null()]);

/** A team's streaming endpoint as its admins see it: never its secret. */
export const EventStream = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    state: Type.Enum([...STREAM_STATES]),
    createdAt: time,
    /** When its secret was last replaced, if ever. */
    rotatedAt: maybeTime,
    /** The last event it took (a 2xx answer), if any. */
    lastDeliveryAt: maybeTime,
    /** The first failure of the present run of failures; null while it takes its events. */
    failingSince: maybeTime,
    /** Why the last attempt failed, and the status it answered (badStatus). */
    lastProblem: Type.Union([Type.Enum([...STREAM_PROBLEMS]), Type.Null()]),
    lastStatus: Type.Union([Type.Integer(), Type.Null()]),
    /** When the next attempt is due while it fails. */
    nextAttemptAt: maybeTime,
    disabledAt: maybeTime,
    /** Events waiting for it. */
    pending: Type.Integer({ minimum: 0 }),
  },
  closed,
);
export type EventStream = Static<typeof EventStream>;

export const EventStreamList = Type.Object({ streams: Type.Array(EventStream) }, closed);
export type EventStreamList = Static<typeof EventStreamList>;

/** An endpoint with its signing secret (`whsec_…`): answered once, when it is made or replaced. */
export const EventStreamWithSecret = Type.Object({ stream: EventStream, secret: Type.String() }, closed);
export type EventStreamWithSecret = Static<typeof EventStreamWithSecret>;

export const EventStreamReply = Type.Object({ stream: EventStream }, closed);
export type EventStreamReply = Static<typeof EventStreamReply>;

/** What the test event met: a 2xx (`ok`), or why not. */
export const StreamTestResult = Type.Object(
  {
    ok: Type.Boolean(),
    status: Type.Union([Type.Integer(), Type.Null()]),
    problem: Type.Union([Type.Enum([...STREAM_PROBLEMS]), Type.Null()]),
  },
  closed,
);
export type StreamTestResult = Static<typeof StreamTestResult>;

/** `POST /api/team/streams`: the endpoint's address (https; http to this machine in the demo). */
export const EventStreamBody = Type.Object({ url: Type.String({ maxLength: STREAM_URL_LENGTH }) }, closed);
export type EventStreamBody = Static<typeof EventStreamBody>;

const StreamParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }, closed);

export const listStreamsSchema = {
  response: { 200: EventStreamList, ...errors(400, 401, 403, 500) },
} satisfies RouteSchema;

/** 400 `invalidUrl` / `insecureUrl` / `forbiddenAddress` (field `url`); 409 `tooManyStreams`. */
export const createStreamSchema = {
  body: EventStreamBody,
  response: { 201: EventStreamWithSecret, ...errors(400, 401, 403, 409, 413, 415, 500) },
} satisfies RouteSchema;

/** A new secret; the old one signs too for a day. */
export const rotateStreamSecretSchema = {
  params: StreamParams,
  response: { 200: EventStreamWithSecret, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/** Pause, or resume (a disabled endpoint too: its waiting events go first). */
export const streamStateSchema = {
  params: StreamParams,
  response: { 200: EventStreamReply, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/** One `stream.test` event to this endpoint now, whatever its state; answered with what it met. */
export const testStreamSchema = {
  params: StreamParams,
  response: {
    200: Type.Object({ stream: EventStream, result: StreamTestResult }, closed),
    ...errors(400, 401, 403, 404, 413, 415, 500),
  },
} satisfies RouteSchema;

export const deleteStreamSchema = {
  params: StreamParams,
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;
