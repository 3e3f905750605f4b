import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { preparedQuery } from '../db/prepared';
import type { Database, User } from '../db/schema';
import type { AccessClaims } from './tokens';

const BEARER = 'Bearer ';

export interface BearerCaller {
  claims: AccessClaims;
  user: User;
  teamName: string;
}

function buildCallerLookup(db: Kysely<Database>) {
  return preparedQuery(db, ['sub', 'team', 'sid', 'now'], (p) =>
    db
      .selectFrom('users')
      .innerJoin('teams', 'teams.id', 'users.team_id')
      .selectAll('users')
      .select('teams.name as team_name')
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('sessions')
              .select('sessions.public_id')
              .where('sessions.public_id', '=', p.sid)
              .whereRef('sessions.user_id', '=', 'users.id')
              .where('sessions.revoked_at', 'is', null)
              .where('sessions.expires_at', '>', p.now),
          )
          .as('session_live'),
      )
      .where('users.id', '=', p.sub)
      .where('users.team_id', '=', p.team),
  );
}

const callerLookups = new WeakMap<Kysely<Database>, ReturnType<typeof buildCallerLookup>>();

/** The caller lookup of a database, built once. */
function callerLookup(db: Kysely<Database>): ReturnType<typeof buildCallerLookup> {
  let lookup = callerLookups.get(db);
  if (!lookup) {
    lookup = buildCallerLookup(db);
    callerLookups.set(db, lookup);
  }
  return lookup;
}

/**
 * The caller of a bearer-authenticated route: a valid access token whose user still exists in the team
 * the token names (the team always comes from the token, never from the request), and whose session or
 * password is still the one it was issued on (design §4: sign-out, password reset and expiry end a
 * session, and with it the tokens exchanged from it). Anything else answers 401 (and returns null).
 *
 * - A token naming a session (`sid`: the portal's exchange, the developer tools) lives only while that
 *   session does: not revoked, not past its absolute end. The idle limit (8 h) is longer than a token's
 *   life (1 h), so it needs no check here.
 * - A token without a session (the QR device grant: the mobile app holds no browser session) lives
 *   only while the password it was issued under does: issued in or before the second of the last
 *   password change, it is refused. `iat` has whole seconds, so a token issued in that same second after
 *   the change is refused too — failing closed; the app just signs in again.
 *
 * The user, the team name and the session are read in one statement, built once: on SQLite each
 * statement that reads a table opens its own read transaction, which costs more than the lookup itself
 * (about 8 µs of 10), and Kysely's building and compiling cost as much again; bearer routes run on every
 * page of the suite apps.
 */
export async function requireBearer(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<BearerCaller | null> {
  const { tokens, db, clock } = request.server.services;
  const header = request.headers.authorization;
  // The token's text is checked by verifyAccessToken (before parsing, and only once per token).
  const claims = header?.startsWith(BEARER)
    ? await tokens.verifyAccessToken(header.slice(BEARER.length))
    : null;
  const sid = claims?.sid;
  const row = claims
    ? await callerLookup(db)({ sub: claims.sub, team: claims.team_id, sid: sid ?? '', now: clock.now() })
    : undefined;
  const backed =
    !!claims &&
    !!row &&
    (sid !== undefined
      ? // SQLite answers 0 or 1, PostgreSQL a boolean.
        !!row.session_live
      : row.password_changed_at === null ||
        (typeof claims.iat === 'number' && claims.iat > Math.floor(row.password_changed_at / 1000)));
  if (!claims || !row || !backed) {
    reply
      .code(401)
      .header('WWW-Authenticate', `Bearer error="invalid_token"`)
      .send({ message: 'a valid access token is required' });
    return null;
  }
  const { team_name: teamName, session_live: _live, ...user } = row;
  return { claims, user, teamName };
}
