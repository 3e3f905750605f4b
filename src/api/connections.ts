import type {
  TeamConnection as TeamConnectionSchema,
  TeamConnectionBody,
  TeamConnectionList,
  TeamConnectionPatch,
} from '../contract/schemas/connections';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// A team's enterprise connections (team administration): the only caller of these endpoints. The
// types are the server's schemas, imported as types only (see endpoints.ts).

export type TeamConnection = TeamConnectionSchema;
export type TeamConnectionDetails = TeamConnectionBody;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);
const connectionAt = (ctx: ApiContext, id: string, rest = '') =>
  at(ctx, `/api/team/connections/${encodeURIComponent(id)}${rest}`);

/** GET /api/team/connections (admin). */
export async function listTeamConnections(ctx: ApiContext, signal?: AbortSignal): Promise<TeamConnection[]> {
  const list = await request<TeamConnectionList>(ctx, at(ctx, '/api/team/connections'), { signal });
  return list.connections;
}

/**
 * POST /api/team/connections (admin): a SAML connection, off and untested. 400 `invalidName`,
 * `invalidUri`/`insecureUri`/`fragmentUri` (`ssoUrl`), `invalidCertificate` (`certificates.0`), or from
 * `metadataUrl`/`metadataXml` one of `METADATA_PROBLEMS` or `mixedDetails`, each with its `field`.
 */
export function addTeamConnection(ctx: ApiContext, body: TeamConnectionDetails): Promise<TeamConnection> {
  return request<TeamConnection>(ctx, at(ctx, '/api/team/connections'), { method: 'POST', json: body });
}

/**
 * PATCH /api/team/connections/:id (admin): the refusals of adding; `{metadataUrl}` with the kept
 * address refreshes the provider's details from it. 409 `notTested` when turned on before a test passed.
 */
export function changeTeamConnection(
  ctx: ApiContext,
  id: string,
  change: TeamConnectionPatch,
): Promise<TeamConnection> {
  return request<TeamConnection>(ctx, connectionAt(ctx, id), { method: 'PATCH', json: change });
}

/** DELETE /api/team/connections/:id (admin): 204; 404 when it is gone. */
export function removeTeamConnection(ctx: ApiContext, id: string): Promise<unknown> {
  return request<unknown>(ctx, connectionAt(ctx, id), { method: 'DELETE' });
}

/** POST /api/team/connections/:id/test (admin): the provider's sign-in address for a test, in a new tab. */
export async function startConnectionTest(ctx: ApiContext, id: string): Promise<string> {
  return (await request<{ url: string }>(ctx, connectionAt(ctx, id, '/test'), { method: 'POST' })).url;
}
