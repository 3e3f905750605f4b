import type { FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import type { AccessClaims } from './tokens';

const BEARER = 'Bearer ';

export interface BearerCaller {
  claims: AccessClaims;
  user: Readonly<User>;
  teamName: string;
}

/** The claims of the request's access token, if it carries a valid one (signature, type, audience, time). */
export async function bearerClaimsOf(request: FastifyRequest): Promise<AccessClaims | null> {
  const header = request.headers.authorization;
  // The token's text is checked by verifyAccessToken (before parsing, and only once per token).
  return header?.startsWith(BEARER)
    ? request.server.services.tokens.verifyAccessToken(header.slice(BEARER.length))
    : null;
}

/**
 * The caller of a bearer-authenticated route: a valid access token whose user still exists in the team
 * the token names (the team always comes from the token, never from the request), and whose session or
 * password is still the one it was issued on (design §4: sign-out, password reset and expiry end a
 * session, and with it the tokens exchanged from it). Anything else is null: the auth hook
 * (plugins/auth.ts) then answers 401.
 *
 * - A token naming a session (`sid`: the portal's exchange, the developer tools) lives only while that
 *   session does: not revoked, not past its absolute end. The idle limit (8 h) is longer than a token's
 *   life (1 h), so it needs no check here.
 * - A token without a session (the QR device grant: the mobile app holds no browser session) lives
 *   only while the password it was issued under does: issued in or before the second of the last
 *   password change, it is refused. `iat` has whole seconds, so a token issued in that same second after
 *   the change is refused too — failing closed; the app just signs in again. The password an account
 *   was made with is no change (`passwordStands`).
 *
 * The user, the team name and the session are read in one statement, built once (`findTokenHolder` in
 * db/users.ts): on SQLite each statement that reads a table opens its own read transaction, and
 * bearer routes run on every page of the suite apps (docs/decisions/bearer-lookup-once.md). On SQLite, what that statement read for a token is
 * then kept until any row of the database changes (`keptUntilChange`): a sign-out, a password change, a
 * rename or a deletion is a write, so the next call reads again, and a revoked session stops its tokens
 * at once all the same (docs/decisions/bearer-read-cache.md). The session's end is kept as a time and compared with the clock on every call.
 */
/**
 * Whether a token without a session was issued under the user's current password: no password change
 * since, or none at all. A password set when the account was made changed nothing: no token can be older
 * than the account, and one issued in its first second (a new owner sent straight back to an app) holds.
 */
function passwordStands(user: Readonly<User>, iat: unknown): boolean {
  const changed = user.password_changed_at;
  if (changed === null || changed === user.created_at) return true;
  return typeof iat === 'number' && iat > Math.floor(changed / 1000);
}

export async function bearerCallerOf(request: FastifyRequest): Promise<BearerCaller | null> {
  const { repos, clock } = request.server.services;
  const claims = await bearerClaimsOf(request);
  const caller = claims ? await repos.users.findTokenHolder(claims) : undefined;
  const backed =
    !!claims &&
    !!caller &&
    (claims.sid !== undefined
      ? caller.sessionEndsAt !== null && caller.sessionEndsAt > clock.now()
      : passwordStands(caller.user, claims.iat));
  if (!claims || !caller || !backed) return null;
  return { claims, user: caller.user, teamName: caller.teamName };
}
