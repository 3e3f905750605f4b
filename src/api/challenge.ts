import type { Challenge, Proof } from '../contract/schemas/challenge';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

export type { Challenge, Proof };

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);

/** GET /account/challenge: a proof-of-work challenge to solve; 429 when this address asks too often. */
export function getChallenge(ctx: ApiContext): Promise<Challenge> {
  return request<Challenge>(ctx, at(ctx, '/account/challenge'));
}
