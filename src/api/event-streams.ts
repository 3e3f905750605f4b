import type {
  EventStream as EventStreamSchema,
  EventStreamBody,
  EventStreamList,
  EventStreamReply,
  EventStreamWithSecret as EventStreamWithSecretSchema,
  StreamTestResult as StreamTestResultSchema,
} from '../contract/schemas/event-streams';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// A team's event streaming endpoints (team administration): the only caller of these endpoints. The
// types are the server's schemas, imported as types only (see endpoints.ts).

export type EventStream = EventStreamSchema;
export type EventStreamWithSecret = EventStreamWithSecretSchema;
export type StreamTestResult = StreamTestResultSchema;
export type NewEventStream = EventStreamBody;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);
const streamAt = (ctx: ApiContext, id: string, rest = '') =>
  at(ctx, `/api/team/streams/${encodeURIComponent(id)}${rest}`);

/** GET /api/team/streams (admin): the team's endpoints and how each is doing. */
export function listStreams(ctx: ApiContext, signal?: AbortSignal): Promise<EventStreamList> {
  return request<EventStreamList>(ctx, at(ctx, '/api/team/streams'), { signal });
}

/**
 * POST /api/team/streams (admin): the endpoint and its signing secret, shown once. 400 `invalidUrl` /
 * `insecureUrl`; 409 `tooManyStreams`.
 */
export function addStream(ctx: ApiContext, body: NewEventStream): Promise<EventStreamWithSecret> {
  return request<EventStreamWithSecret>(ctx, at(ctx, '/api/team/streams'), { method: 'POST', json: body });
}

/** POST /api/team/streams/:id/secret (admin): a new secret; the old one still signs for a day. */
export function rotateStreamSecret(ctx: ApiContext, id: string): Promise<EventStreamWithSecret> {
  return request<EventStreamWithSecret>(ctx, streamAt(ctx, id, '/secret'), { method: 'POST' });
}

/** POST /api/team/streams/:id/pause or …/resume (admin): the endpoint as it is now. */
export async function setStreamPaused(ctx: ApiContext, id: string, paused: boolean): Promise<EventStream> {
  const path = paused ? '/pause' : '/resume';
  return (await request<EventStreamReply>(ctx, streamAt(ctx, id, path), { method: 'POST' })).stream;
}

/** POST /api/team/streams/:id/test (admin): a test event sent now, and what it met. */
export function testStream(
  ctx: ApiContext,
  id: string,
): Promise<{ stream: EventStream; result: StreamTestResult }> {
  return request(ctx, streamAt(ctx, id, '/test'), { method: 'POST' });
}

/** DELETE /api/team/streams/:id (admin): 204; what waited for it goes too. */
export function removeStream(ctx: ApiContext, id: string): Promise<unknown> {
  return request<unknown>(ctx, streamAt(ctx, id), { method: 'DELETE' });
}
