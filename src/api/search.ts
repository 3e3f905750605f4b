import type { Static } from 'typebox';
import type { SearchResult } from '../contract/schemas/team';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

export type SearchMembers = Static<typeof SearchResult>;
export type FoundMember = SearchMembers['members'][number];

/** GET /api/search (bearer): the team's members a query finds — none for a caller who is not an admin. */
export function searchMembers(ctx: ApiContext, q: string, signal?: AbortSignal): Promise<SearchMembers> {
  const url = issuerUrl(ctx.issuer, `/api/search?${new URLSearchParams({ q })}`, location.origin);
  return request<SearchMembers>(ctx, url, { signal });
}
