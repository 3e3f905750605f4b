import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * An app's authorization request with PKCE S256 and offline access, as a relying party builds it:
 * the provider's address to send the browser to, and the verifier for the code exchange.
 */
export function offlineCodeRequest(
  clientId: string,
  redirectUri: string,
): { path: string; verifier: string } {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email offline_access',
    prompt: 'consent',
    state: 'state-1',
    nonce: 'nonce-1',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  return { path: `/oidc/auth?${query}`, verifier };
}

/** A form post to the server's token endpoint, with client credentials in `Authorization` if given. */
export const tokenRequest = (app: FastifyInstance, form: Record<string, string>, authorization?: string) =>
  app.inject({
    method: 'POST',
    url: '/connect/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(authorization ? { authorization } : {}),
    },
    payload: new URLSearchParams(form).toString(),
  });
