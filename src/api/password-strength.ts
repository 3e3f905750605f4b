import type { Static } from 'typebox';
import type { StrengthBody, StrengthReply } from '../contract/schemas/password';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

export type Strength = Static<typeof StrengthReply>;

/**
 * POST /api/password/strength: how hard a new password is to guess, in the context's language (its
 * dictionaries). 429 and 503 when the server will not estimate now. A module of its own: only the
 * strength meter's chunk carries it.
 */
export function estimateStrength(ctx: ApiContext, body: Static<typeof StrengthBody>): Promise<Strength> {
  return request<Strength>(ctx, issuerUrl(ctx.issuer, '/api/password/strength', location.origin), {
    method: 'POST',
    json: body,
  });
}
