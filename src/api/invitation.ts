import type { Static } from 'typebox';
import type {
  AcceptBody,
  AcceptResult,
  GoneBody,
  GoneReason,
  InspectBody,
  InspectResult,
} from '../contract/schemas/invitation';
import { ApiError, request, type ApiContext } from './client';
import { issuerUrl } from './url';

export type Invitation = Static<typeof InspectResult>;
export type InvitationGone = Static<typeof GoneReason>;
export type InvitationLink = Static<typeof InspectBody>;
export type AcceptInvitation = Static<typeof AcceptBody>;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);

/** POST /api/invitations/inspect: what a link is for; 410 (see `goneReason`) when it no longer works. */
export function inspectInvitation(ctx: ApiContext, link: InvitationLink): Promise<Invitation> {
  return request<Invitation>(ctx, at(ctx, '/api/invitations/inspect'), { method: 'POST', json: link });
}

/** POST /api/invitations/accept: joins with a name and password and signs in (session cookie). */
export function acceptInvitation(
  ctx: ApiContext,
  body: AcceptInvitation,
): Promise<Static<typeof AcceptResult>> {
  return request<Static<typeof AcceptResult>>(ctx, at(ctx, '/api/invitations/accept'), {
    method: 'POST',
    json: body,
  });
}

/**
 * Why a link no longer works, when a call failed for that reason (410 `gone`); otherwise null. The
 * reasons are the link's kind's (`R`: an invitation's by default, a setup link's), all with `invalid`.
 */
export function goneReason<R extends string = InvitationGone>(error: unknown): R | 'invalid' | null {
  if (!(error instanceof ApiError) || error.status !== 410) return null;
  const body = error.body as Partial<Omit<Static<typeof GoneBody>, 'reason'> & { reason: R }> | null;
  return body?.code === 'gone' && typeof body.reason === 'string' ? body.reason : 'invalid';
}

/** The field a 400 names (`{message, code, field}`), if any. */
export function errorField(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body as { field?: unknown } | null;
  return typeof body?.field === 'string' ? body.field : null;
}
