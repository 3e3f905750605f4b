import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual, sha256 } from '../lib/crypto';
import { TOKEN_TTL_SECONDS } from '../lib/tokens';
import type { Session } from '../db/schema';
import { OIDC_ROUTES, PROVIDER_GRANTS } from '../lib/openid-provider';
import { DEVICE_GRANT } from '../lib/team-apps';
import { sessionOf } from '../lib/session';
import { forwardToProvider } from './oidc';
import { tokenSchema } from '../../../src/contract/schemas/token';

const SESSION_GRANT = 'device_code';
const CLIENT_GRANT = 'client_credentials';
/** What an unknown client's secret is compared with, so it costs what a wrong secret does. */
const NO_CLIENT = sha256('no client');

/** `Authorization: Basic` credentials (RFC 6749 §2.3.1: each part form-encoded), if the header has them. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return null;
  }
}

function oauthError(reply: FastifyReply, error: string, description: string, status: 400 | 401 = 400) {
  return reply.code(status).send({ error, error_description: description, message: description });
}

/**
 * POST /connect/token. Four kinds of grant:
 * - the portal's session exchange (`grant_type=device_code` with `sessionId`): the session id must be the
 *   public handle of the caller's own session cookie;
 * - the RFC 8628 device grant for QR code login: the mobile app (DEVICE_CLIENT_ID) exchanges a device
 *   code once, within its ten minutes, for tokens of the user who generated it (`expired_token`,
 *   `invalid_grant` otherwise; the code was authorized when it was made, so never `authorization_pending`);
 *   the same grant of any other client is the provider's device flow;
 * - client credentials (RFC 6749 §4.4) for a team's machine apps (`clientGrant`);
 * - the OpenID Provider's authorization code and refresh token grants, handed to it as they came.
 */
export const tokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config, repos, tokens, clock } = app.services;

  async function issue(userId: string, scopes: string[], session?: Session) {
    const subject = await repos.users.findMember(userId);
    if (!subject) return null;
    // The session's sign-in: how (amr) and when (auth_time) the user proved who they are.
    const signIn = session && { amr: session.amr.split(' '), authTime: session.created_at };
    const [accessToken, idToken] = await Promise.all([
      tokens.accessToken(subject, config.portalClientId, scopes, session?.public_id, signIn),
      tokens.idToken(subject, config.portalClientId, await repos.groups.namesOf({ id: userId }), signIn),
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
  /**
   * RFC 6749 §4.4: a team's machine app (a suite app reporting the team's storage) authenticates with its
   * id and secret — HTTP Basic (§2.3.1) or the form — and gets an access token for its team with the
   * scopes it asked for, each one the client may have (all of them when it names none).
   */
  async function clientGrant(
    request: FastifyRequest,
    body: { client_id?: string; client_secret?: string; scope?: string },
    reply: FastifyReply,
  ) {
    const basic = basicCredentials(request.headers.authorization);
    const clientId = basic?.id ?? body.client_id;
    const secret = basic?.secret ?? body.client_secret;
    const found = clientId ? await repos.teamApps.find(clientId) : undefined;
    // Only a machine app that is on has this grant; a disabled one is as unknown as a deleted one.
    const client = found?.kind === 'machine' && found.disabled === 0 ? found : undefined;
    // Compared in constant time, and compared even for an unknown client.
    const matches = safeEqual(client?.secret_hash ?? NO_CLIENT, sha256(secret ?? ''));
    if (!client || !secret || !matches || (basic && body.client_secret !== undefined)) {
      if (basic) reply.header('WWW-Authenticate', 'Basic realm="token"');
      return oauthError(reply, 'invalid_client', 'unknown client or wrong secret', 401);
    }
    await repos.teamApps.touch(client.client_id, clock.now());
    const allowed = client.scopes.split(' ').filter(Boolean);
    const asked = body.scope?.split(' ').filter(Boolean) ?? allowed;
    if (asked.length === 0 || asked.some((scope) => !allowed.includes(scope)))
      return oauthError(reply, 'invalid_scope', `this client may ask for: ${allowed.join(' ')}`);
    const accessToken = await tokens.clientAccessToken(client.client_id, client.team_id, asked);
    reply.header('Pragma', 'no-cache');
    return {
      access_token: accessToken,
      token_type: 'Bearer' as const,
      expires_in: TOKEN_TTL_SECONDS,
      scope: asked.join(' '),
    };
  }

  app.post(
    '/connect/token',
    { config: { body: 'form', auth: 'none' }, schema: tokenSchema },
    async (request, reply) => {
      const body = request.body;
      // The OpenID Provider's grants: one token endpoint for every client (openid-provider.md).
      if ((PROVIDER_GRANTS as readonly string[]).includes(body.grant_type))
        return forwardToProvider(request, reply, OIDC_ROUTES.token);
      // RFC 8628 for the provider's clients; the mobile app's QR code login stays the server's.
      if (body.grant_type === DEVICE_GRANT && body.client_id === config.deviceClientId)
        return deviceGrant(body, reply);
      if (body.grant_type === DEVICE_GRANT) return forwardToProvider(request, reply, OIDC_ROUTES.token);
      if (body.grant_type === CLIENT_GRANT) return clientGrant(request, body, reply);
      if (body.grant_type !== SESSION_GRANT) {
        return oauthError(
          reply,
          'unsupported_grant_type',
          `grant_type must be device_code, ${DEVICE_GRANT}, ${CLIENT_GRANT}, ${PROVIDER_GRANTS.join(', ')}`,
        );
      }
      if (body.client_id !== config.portalClientId)
        return oauthError(reply, 'invalid_client', 'unknown client');
      const session = await sessionOf(request);
      if (!session || !body.sessionId || session.public_id !== body.sessionId) {
        return oauthError(reply, 'invalid_grant', 'the session is not yours or has ended');
      }
      const answer = await issue(session.user_id, ['openid', 'profile', 'email'], session);
      if (!answer) return oauthError(reply, 'invalid_grant', 'the session is not yours or has ended');
      reply.header('Pragma', 'no-cache');
      return answer;
    },
  );
};
