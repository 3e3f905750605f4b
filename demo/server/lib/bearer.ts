import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import type { AccessClaims } from './tokens';

export interface BearerCaller {
  claims: AccessClaims;
  user: User;
  teamName: string;
}

/**
 * The caller of a bearer-authenticated route: a valid access token whose user still exists in the team
 * the token names. Anything else answers 401 (and returns null).
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
  if (!claims || !row) {
    reply
      .code(401)
      .header('WWW-Authenticate', `Bearer error="invalid_token"`)
      .send({ message: 'a valid access token is required' });
    return null;
  }
  const { team_name, ...user } = row;
  return { claims, user, teamName: team_name };
}
