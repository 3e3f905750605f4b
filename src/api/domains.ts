import type {
  TeamDomain as TeamDomainSchema,
  TeamDomainList,
  TeamDomainSignIn,
} from '../contract/schemas/domains';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// A team's e-mail domains (team administration): the only caller of these endpoints. The types are the
// server's schemas, imported as types only (see endpoints.ts).

/** A domain as the team's admins see it, with the DNS record that proves it. */
export type TeamDomain = TeamDomainSchema;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);
const domainAt = (ctx: ApiContext, domain: string, rest = '') =>
  at(ctx, `/api/team/domains/${encodeURIComponent(domain)}${rest}`);

/** GET /api/team/domains (admin): the team's domains, by name. */
export async function listTeamDomains(ctx: ApiContext, signal?: AbortSignal): Promise<TeamDomain[]> {
  const list = await request<TeamDomainList>(ctx, at(ctx, '/api/team/domains'), { signal });
  return list.domains;
}

/**
 * POST /api/team/domains (admin): the pending domain and its record. 400 `invalidDomain` or
 * `publicDomain`, 409 `domainTaken`, each at the field `domain`.
 */
export function addTeamDomain(ctx: ApiContext, domain: string): Promise<TeamDomain> {
  return request<TeamDomain>(ctx, at(ctx, '/api/team/domains'), { method: 'POST', json: { domain } });
}

/**
 * POST /api/team/domains/:domain/verify (admin): the record looked up now; the domain as it stands
 * after (its `lastProblem` says why it is not verified). 409 `domainTaken`: another team proved it first.
 */
export function verifyTeamDomain(ctx: ApiContext, domain: string): Promise<TeamDomain> {
  return request<TeamDomain>(ctx, domainAt(ctx, domain, '/verify'), { method: 'POST' });
}

/**
 * PATCH /api/team/domains/:domain (admin): how its addresses sign in. 409 `notVerified`; 400
 * `unknownConnection` or `noConnection` at `connectionId`.
 */
export function setDomainSignIn(
  ctx: ApiContext,
  domain: string,
  change: TeamDomainSignIn,
): Promise<TeamDomain> {
  return request<TeamDomain>(ctx, domainAt(ctx, domain), { method: 'PATCH', json: change });
}

/**
 * PUT /api/team/domains/:domain/auto-join (admin): whether people at the verified domain who ask to
 * join are invited without approval. 409 `notVerified`.
 */
export function setDomainAutoJoin(ctx: ApiContext, domain: string, autoJoin: boolean): Promise<TeamDomain> {
  return request<TeamDomain>(ctx, domainAt(ctx, domain, '/auto-join'), { method: 'PUT', json: { autoJoin } });
}

/** DELETE /api/team/domains/:domain (admin): 204; 404 when it is gone. */
export function removeTeamDomain(ctx: ApiContext, domain: string): Promise<unknown> {
  return request<unknown>(ctx, domainAt(ctx, domain), { method: 'DELETE' });
}
