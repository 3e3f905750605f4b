import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { sha256 } from '../lib/crypto';
import { sessionOf } from '../plugins/cookies';
import { tokenSchema } from '../schemas/token';

const SESSION_GRANT = 'device_code';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

function oauthError(reply: FastifyReply, error: string, description: string) {
  return reply.code(400).send({ error, error_description: description, message: description });
}

/**
 * POST /connect/token. Two grants:
 * - the portal's session exchange (`grant_type=device_code` with `sessionId`): the session id must be the
 *   public handle of the caller's own session cookie;
 * - the RFC 8628 device grant for QR code login: the mobile app (DEVICE_CLIENT_ID) exchanges a device
 *   code once, within its ten minutes, for tokens of the user who generated it (`expired_token`,
 *   `invalid_grant` otherwise; the code was authorized when it was made, so never `authorization_pending`).
 */
export const tokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config, repos, tokens, clock } = app.services;

  async function issue(userId: string, scopes: string[], sessionId?: string) {
    const subject = await repos.users.findMember(userId);
    if (!subject) return null;
    const [accessToken, idToken] = await Promise.all([
      tokens.accessToken(subject, config.portalClientId, scopes, sessionId),
      tokens.idToken(subject, config.portalClientId),
    ]);
    return { access_token: accessToken, token_type: 'Bearer' as const, expires_in: 3600, id_token: idToken };
  }

  async function deviceGrant(body: { client_id?: string; device_code?: string }, reply: FastifyReply) {
    if (body.client_id !== config.deviceClientId)
      return oauthError(reply, 'invalid_client', 'unknown client');
    if (!body.device_code) return oauthError(reply, 'invalid_request', 'device_code is required');
    const now = clock.now();
    const hash = sha256(body.device_code);
    const row = await repos.deviceCodes.findByHash(hash);
    if (!row || row.used_at !== null)
      return oauthError(reply, 'invalid_grant', 'unknown or already used device code');
    if (row.expires_at <= now) return oauthError(reply, 'expired_token', 'the device code has expired');
    // Used once: of parallel exchanges only one changes the row.
    if (!(await repos.deviceCodes.redeem(hash, now)))
      return oauthError(reply, 'invalid_grant', 'unknown or already used device code');
    const answer = await issue(row.user_id, ['openid', 'profile', 'email']);
    if (!answer) return oauthError(reply, 'invalid_grant', 'the user no longer exists');
    reply.header('Pragma', 'no-cache');
    return answer;
  }
  app.post(
    '/connect/token',
    { config: { body: 'form', auth: 'none' }, schema: tokenSchema },
    async (request, reply) => {
      const body = request.body;
      if (body.grant_type === DEVICE_GRANT) return deviceGrant(body, reply);
      if (body.grant_type !== SESSION_GRANT) {
        return oauthError(
          reply,
          'unsupported_grant_type',
          `grant_type must be device_code or ${DEVICE_GRANT}`,
        );
      }
      if (body.client_id !== config.portalClientId)
        return oauthError(reply, 'invalid_client', 'unknown client');
      const session = await sessionOf(request);
      if (!session || !body.sessionId || session.public_id !== body.sessionId) {
        return oauthError(reply, 'invalid_grant', 'the session is not yours or has ended');
      }
      const answer = await issue(session.user_id, ['openid', 'profile', 'email'], session.public_id);
      if (!answer) return oauthError(reply, 'invalid_grant', 'the session is not yours or has ended');
      reply.header('Pragma', 'no-cache');
      return answer;
    },
  );
};
