import type { JoinRequest as JoinRequestSchema, JoinRequestList } from '../contract/schemas/join-requests';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// The requests to join the team from its domains (team administration): the only caller of these
// endpoints. The types are the server's schemas, imported as types only (see endpoints.ts).

/** A request waiting for the team's admins. */
export type JoinRequest = JoinRequestSchema;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);
const requestAt = (ctx: ApiContext, id: string, action: 'approve' | 'decline') =>
  at(ctx, `/api/team/join-requests/${encodeURIComponent(id)}/${action}`);

/** GET /api/team/join-requests (admin): the requests waiting, oldest first. */
export async function listJoinRequests(ctx: ApiContext): Promise<JoinRequest[]> {
  const list = await request<JoinRequestList>(ctx, at(ctx, '/api/team/join-requests'));
  return list.requests;
}

/** POST …/approve (admin): the person is mailed an invitation. 409 `seatLimit`, `alreadyMember`, `alreadyInvited`. */
export function approveJoinRequest(ctx: ApiContext, id: string): Promise<unknown> {
  return request<unknown>(ctx, requestAt(ctx, id, 'approve'), { method: 'POST' });
}

/** POST …/decline (admin): the person is mailed a neutral note. 404 when it no longer waits. */
export function declineJoinRequest(ctx: ApiContext, id: string): Promise<unknown> {
  return request<unknown>(ctx, requestAt(ctx, id, 'decline'), { method: 'POST' });
}
