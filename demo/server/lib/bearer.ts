import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import type { AccessClaims } from './tokens';

export interface BearerCaller {
  claims: AccessClaims;
  user: User;
  teamName: string;
}

/**
 * Whether a token is still backed by what it was issued on (design §4: sign-out, password reset and
 * expiry end a session, and with it the tokens exchanged from it).
 * - A token naming a session (`sid`: the portal's exchange, the developer tools) lives only while that
 *   session does: not revoked, not past its absolute end. The idle limit (8 h) is longer than a token's
 *   life (1 h), so it needs no check here.
 * - A token without a session (the QR device grant: the mobile app holds no browser session) lives
 *   only while the password it was issued under does: issued in or before the second of the last
 *   password change, it is refused. `iat` has whole seconds, so a token issued in that same second after
 *   the change is refused too — failing closed; the app just signs in again.
 */
async function stillBacked(request: FastifyRequest, claims: AccessClaims, user: User): Promise<boolean> {
  const { db, clock } = request.server.services;
  if (claims.sid !== undefined) {
    const session = await db
      .selectFrom('sessions')
      .select('public_id')
      .where('public_id', '=', claims.sid)
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', clock.now())
      .executeTakeFirst();
    return session !== undefined;
  }
  if (user.password_changed_at === null) return true;
  return typeof claims.iat === 'number' && claims.iat > Math.floor(user.password_changed_at / 1000);
}

/**
 * The caller of a bearer-authenticated route: a valid access token whose user still exists in the team
 * the token names (the team always comes from the token, never from the request), and whose session or
 * password is still the one it was issued on. Anything else answers 401 (and returns null).
 */
export async function requireBearer(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<BearerCaller | null> {
  const { tokens, db } = request.server.services;
  const header = request.headers.authorization ?? '';
  const match = /^Bearer ([A-Za-z0-9_.-]{10,4096})$/.exec(header);
  const claims = match ? await tokens.verifyAccessToken(match[1]!) : null;
  const row = claims
    ? await db
        .selectFrom('users')
        .innerJoin('teams', 'teams.id', 'users.team_id')
        .selectAll('users')
        .select('teams.name as team_name')
        .where('users.id', '=', claims.sub)
        .where('users.team_id', '=', claims.team_id)
        .executeTakeFirst()
    : undefined;
  const caller = row ? (({ team_name, ...user }) => ({ teamName: team_name, user }))(row) : null;
  if (!claims || !caller || !(await stillBacked(request, claims, caller.user))) {
    reply
      .code(401)
      .header('WWW-Authenticate', `Bearer error="invalid_token"`)
      .send({ message: 'a valid access token is required' });
    return null;
  }
  return { claims, ...caller };
}
