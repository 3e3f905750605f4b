import type { Static } from 'typebox';
import type {
  Invitation as InvitationSchema,
  InvitationList,
  InviteBody,
} from '../contract/schemas/invitation';
import type {
  AuditKind as AuditKindSchema,
  AuditList as AuditListSchema,
  LoginOptionsBody,
  Permission as PermissionSchema,
  TeamAdmin as TeamAdminSchema,
} from '../contract/schemas/team';
import type {
  TeamApp as TeamAppSchema,
  TeamAppBody,
  TeamAppList,
  TeamAppPatch,
  TeamAppWithSecret as TeamAppWithSecretSchema,
} from '../contract/schemas/team-apps';
import { request, requestFile, type ApiContext } from './client';
import { issuerUrl } from './url';

// Team administration (design §7): the only caller of these endpoints. The types are the server's
// schemas, imported as types only (see endpoints.ts).

/** The team as its admins see it: seats, storage, sign-in methods, support panel, `callerIsOwner`. */
export type TeamAdmin = Static<typeof TeamAdminSchema>;
export type TeamPermission = Static<typeof PermissionSchema>;
export type Invitation = Static<typeof InvitationSchema>;
export type InviteRequest = Static<typeof InviteBody>;
export type LoginOptionsChange = Static<typeof LoginOptionsBody>;
export type AuditList = Static<typeof AuditListSchema>;
export type AuditEvent = AuditList['events'][number];
export type AuditKind = Static<typeof AuditKindSchema>;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);

/** GET /api/team (admin). */
export function getTeam(ctx: ApiContext): Promise<TeamAdmin> {
  return request<TeamAdmin>(ctx, at(ctx, '/api/team'));
}

/** PUT /api/team/seat-limit (owner): 400 `invalidLimit`, 409 `belowCount` (field `limit`). */
export function setSeatLimit(ctx: ApiContext, limit: number): Promise<TeamAdmin> {
  return request<TeamAdmin>(ctx, at(ctx, '/api/team/seat-limit'), { method: 'PUT', json: { limit } });
}

/** PATCH /api/team/login-options (admin): 400 `notConfigured`, 409 `lastMethod`. */
export function setLoginOptions(ctx: ApiContext, change: LoginOptionsChange): Promise<TeamAdmin> {
  return request<TeamAdmin>(ctx, at(ctx, '/api/team/login-options'), { method: 'PATCH', json: change });
}

/** GET /api/team/invitations (admin): the open ones, newest first, expired ones too. */
export async function getInvitations(ctx: ApiContext): Promise<Invitation[]> {
  const list = await request<Static<typeof InvitationList>>(ctx, at(ctx, '/api/team/invitations'));
  return list.invitations;
}

/**
 * POST /api/team/invitations (admin): 400 `invalidEmail`, `invalidPermission`; 403 `notOwner`; 409
 * `alreadyMember`, `alreadyInvited`, `seatLimit`.
 */
export function invite(ctx: ApiContext, body: InviteRequest): Promise<Invitation> {
  return request<Invitation>(ctx, at(ctx, '/api/team/invitations'), { method: 'POST', json: body });
}

/** POST /api/team/invitations/:id/resend (admin): a new link (new id), the old one stops working. */
export function resendInvitation(ctx: ApiContext, id: string): Promise<Invitation> {
  return request<Invitation>(ctx, at(ctx, `/api/team/invitations/${encodeURIComponent(id)}/resend`), {
    method: 'POST',
  });
}

/** DELETE /api/team/invitations/:id (admin): 204; 404 when it is no longer open. */
export function revokeInvitation(ctx: ApiContext, id: string): Promise<unknown> {
  return request<unknown>(ctx, at(ctx, `/api/team/invitations/${encodeURIComponent(id)}`), {
    method: 'DELETE',
  });
}

/** What the event log is narrowed to: a kind, a member who acted, [from, to) as ISO 8601 instants. */
export interface EventFilter {
  kind?: AuditKind | null;
  actor?: string | null;
  from?: string | null;
  to?: string | null;
}

/**
 * GET /api/team/audit (admin): the team's events, newest first, `limit` at a time; `before` is the last
 * page's `next`; the filter keeps one kind, one member's, or a range. 400 `invalidRange`.
 */
export function getAudit(
  ctx: ApiContext,
  query: { limit: number; before?: string | null } & EventFilter,
): Promise<AuditList> {
  const params = new URLSearchParams({ limit: String(query.limit) });
  for (const key of ['before', 'kind', 'actor', 'from', 'to'] as const) {
    const value = query[key];
    if (value) params.set(key, value);
  }
  return request<AuditList>(ctx, at(ctx, `/api/team/audit?${params.toString()}`));
}

export type EventExportFormat = 'csv' | 'json';

/**
 * GET /api/team/events/export (admin): the events of [from, to) as a CSV or JSON file to save. 400
 * `invalidRange`, `rangeTooLong` (more than EVENT_EXPORT_MAX_DAYS).
 */
export function exportEvents(
  ctx: ApiContext,
  query: { from: string; to: string; format: EventExportFormat },
): Promise<Blob> {
  const params = new URLSearchParams(query);
  const type = query.format === 'csv' ? 'text/csv' : 'application/json';
  return requestFile(ctx, at(ctx, `/api/team/events/export?${params.toString()}`), type);
}

export type TeamApp = Static<typeof TeamAppSchema>;
export type TeamAppKind = TeamApp['kind'];
export type TeamAppWithSecret = Static<typeof TeamAppWithSecretSchema>;
export type TeamAppRegistration = Static<typeof TeamAppBody>;
export type TeamAppChange = Static<typeof TeamAppPatch>;

const appAt = (ctx: ApiContext, clientId: string, rest = '') =>
  at(ctx, `/api/team/apps/${encodeURIComponent(clientId)}${rest}`);

/** GET /api/team/apps (admin): the team's own OpenID Connect apps. */
export async function listTeamApps(ctx: ApiContext, signal?: AbortSignal): Promise<TeamApp[]> {
  const list = await request<Static<typeof TeamAppList>>(ctx, at(ctx, '/api/team/apps'), { signal });
  return list.apps;
}

/**
 * POST /api/team/apps (admin): the app and, for web and machine apps, its secret (shown once). 400
 * `invalidName`, or an address's `invalidUri`, `insecureUri`, `fragmentUri`, `loopbackLogoutUri`,
 * `uriRequired`, `uriNotAllowed` with its `field` (`redirectUris.1`).
 */
export function registerTeamApp(ctx: ApiContext, body: TeamAppRegistration): Promise<TeamAppWithSecret> {
  return request<TeamAppWithSecret>(ctx, at(ctx, '/api/team/apps'), { method: 'POST', json: body });
}

/** PATCH /api/team/apps/:clientId (admin): the same refusals as registering; 404 when it is gone. */
export function changeTeamApp(ctx: ApiContext, clientId: string, change: TeamAppChange): Promise<TeamApp> {
  return request<TeamApp>(ctx, appAt(ctx, clientId), { method: 'PATCH', json: change });
}

/** POST /api/team/apps/:clientId/secret (admin): a new secret; the old one stops at once. */
export function rotateTeamAppSecret(ctx: ApiContext, clientId: string): Promise<TeamAppWithSecret> {
  return request<TeamAppWithSecret>(ctx, appAt(ctx, clientId, '/secret'), { method: 'POST' });
}

/** DELETE /api/team/apps/:clientId (admin): 204; its grants and tokens go with it. */
export function deleteTeamApp(ctx: ApiContext, clientId: string): Promise<unknown> {
  return request<unknown>(ctx, appAt(ctx, clientId), { method: 'DELETE' });
}
