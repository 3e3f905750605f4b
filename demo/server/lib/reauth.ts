import type { FastifyRequest } from 'fastify';
import type { BearerCaller } from './bearer';

/** A user without a password re-authenticates by having signed in this recently. */
export const REAUTH_WINDOW_MS = 5 * 60_000;

export interface ReauthRefusal {
  status: 400 | 403;
  body: { message: string; code: string; field?: string };
}

/**
 * The one check before an account's e-mail changes or the account goes: the current password in the
 * request (a user with one), or — a user who signs in with a provider only — a sign-in within the last
 * five minutes, by the time the token's session began. Null when the caller passes.
 */
export async function reauthRefusal(
  request: FastifyRequest,
  caller: BearerCaller,
  password: string | undefined,
): Promise<ReauthRefusal | null> {
  const { hasher, repos, clock } = request.server.services;
  if (caller.user.password_hash) {
    if (!password)
      return {
        status: 400,
        body: { message: 'enter your password', code: 'passwordRequired', field: 'password' },
      };
    if (!(await hasher.verify(password, caller.user.password_hash)))
      return {
        status: 400,
        body: { message: 'the password is not right', code: 'invalidPassword', field: 'password' },
      };
    return null;
  }
  const began = caller.claims.sid
    ? await repos.activity.sessionStart(caller.claims.sid, caller.user.id)
    : undefined;
  if (began !== undefined && clock.now() - began <= REAUTH_WINDOW_MS) return null;
  return { status: 403, body: { message: 'sign in again first', code: 'reauthRequired' } };
}
