import type {
  OpenSetupResult,
  SetupGoneReason,
  SetupLink as SetupLinkSchema,
  SetupLinkList,
} from '../contract/schemas/setup-links';
import { request, type ApiContext } from './client';
import { goneReason } from './invitation';
import { issuerUrl } from './url';

// Setup links: the owners' calls (send, list, revoke) and the IT contact's (open). The types are the
// server's schemas, imported as types only (see endpoints.ts).

export type SetupLink = SetupLinkSchema;
export type OpenedSetup = OpenSetupResult;
export type SetupGone = SetupGoneReason;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);

/** GET /api/team/setup-links (owner): the team's newest links, newest first. */
export async function listSetupLinks(ctx: ApiContext, signal?: AbortSignal): Promise<SetupLink[]> {
  return (await request<SetupLinkList>(ctx, at(ctx, '/api/team/setup-links'), { signal })).links;
}

/** POST /api/team/setup-links (owner): mails a new link to the address. 400 `invalidEmail` at `email`. */
export function sendSetupLink(ctx: ApiContext, email: string): Promise<SetupLink> {
  return request<SetupLink>(ctx, at(ctx, '/api/team/setup-links'), { method: 'POST', json: { email } });
}

/** DELETE /api/team/setup-links/:id (owner): 204; 404 when it is gone or revoked already. */
export function revokeSetupLink(ctx: ApiContext, id: string): Promise<unknown> {
  return request<unknown>(ctx, at(ctx, `/api/team/setup-links/${encodeURIComponent(id)}`), {
    method: 'DELETE',
  });
}

/**
 * POST /account/setup/open: the first opening binds the link to this browser (an HttpOnly cookie);
 * answers a short-lived token for the team's domain and connection calls. 410 `gone` with the reason.
 */
export function openSetupLink(ctx: ApiContext, token: string): Promise<OpenedSetup> {
  return request<OpenedSetup>(ctx, at(ctx, '/account/setup/open'), { method: 'POST', json: { token } });
}

/** Why a setup link no longer works, when a call failed for that reason (410 `gone`); otherwise null. */
export const setupGoneReason = (error: unknown): SetupGone | null => goneReason<SetupGone>(error);
