/**
 * A relying party's back-channel logout endpoint in the end-to-end tests: its loopback server hands
 * each request here first, and the tests wait for the logout token of a session and check it with the
 * provider's keys, as an app would.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';

/** The path of the relying party's back-channel logout URI. */
export const BACKCHANNEL_PATH = '/backchannel';

/** Takes a logout token POSTed to the back-channel path into `tokens`; false for any other request. */
export function takeLogoutToken(req: IncomingMessage, res: ServerResponse, tokens: string[]): boolean {
  if (req.method !== 'POST' || req.url !== BACKCHANNEL_PATH) return false;
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const token = new URLSearchParams(body).get('logout_token');
    if (token) tokens.push(token);
    res.writeHead(200).end();
  });
  return true;
}

/**
 * The logout token for the session `sid` once it has come (within 30 s: a loaded machine is slow), verified as the client
 * `audience` must: the issuer's signature and `typ`, its audience, and the back-channel logout event.
 */
export async function logoutTokenFor(
  tokens: string[],
  sid: unknown,
  issuer: string,
  audience: string,
): Promise<JWTPayload> {
  const deadline = Date.now() + 30_000;
  let logoutToken: string | undefined;
  while (!(logoutToken = tokens.find((token) => decodeJwt(token).sid === sid))) {
    assert.ok(Date.now() < deadline, 'no logout token reached the app');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks`));
  const { payload } = await jwtVerify(logoutToken, jwks, { issuer, audience, typ: 'logout+jwt' });
  assert.deepEqual(payload.events, { 'http://schemas.openid.net/event/backchannel-logout': {} });
  return payload;
}
