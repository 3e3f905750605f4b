import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Session } from '../db/schema';
import { cookiesOf } from '../lib/cookies';
import { SESSION_COOKIE, SESSION_MAX_MS } from '../lib/sessions';
import { PENDING_COOKIE, PENDING_MS } from '../lib/two-step';
import { XSRF_COOKIE } from '../lib/xsrf';

/**
 * Cookies are `Secure; SameSite=None` (design §4: the elements are embedded cross-site). Browsers accept
 * Secure cookies from http://localhost, so the demo works without TLS; on any other plain-http address
 * they would be dropped, so there the server falls back to `SameSite=Lax` without Secure (and says so).
 */
export function secureCookies(config: Config): boolean {
  const url = new URL(config.publicUrl);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

export function cookieOptions(config: Config, httpOnly: boolean): CookieSerializeOptions {
  const secure = secureCookies(config);
  return { path: '/', httpOnly, secure, sameSite: secure ? 'none' : 'lax' };
}

const sessionCache = new WeakMap<FastifyRequest, Promise<Session | null>>();

/** The caller's live session (resolved once per request). */
export function sessionOf(request: FastifyRequest): Promise<Session | null> {
  let cached = sessionCache.get(request);
  if (!cached) {
    cached = request.server.services.sessions.resolve(cookiesOf(request)[SESSION_COOKIE]);
    sessionCache.set(request, cached);
  }
  return cached;
}

/** Forget the cached session (after sign-in or sign-out within the same request). */
export function setSessionOf(request: FastifyRequest, session: Session | null): void {
  sessionCache.set(request, Promise.resolve(session));
}

/** Set the `XSRF-TOKEN` cookie the caller should hold, if it does not hold it already. */
export async function issueXsrfCookie(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { xsrf, config } = request.server.services;
  const current = cookiesOf(request)[XSRF_COOKIE];
  const expected = xsrf.expectedCookie(await sessionOf(request), current);
  if (expected !== current) reply.setCookie(XSRF_COOKIE, expected, cookieOptions(config, false));
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(config, true), maxAge: SESSION_MAX_MS / 1000 });
}

export function clearSessionCookies(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(config, true));
}

/**
 * Sign a user in on this browser: revoke the session it had (if any), start a new one (fresh id — no
 * session fixation), set its cookie and the session-bound XSRF-TOKEN, and remember when they signed in.
 */
export async function beginSession(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  amr: readonly string[] = ['pwd'],
): Promise<void> {
  const { sessions, config, repos } = request.server.services;
  const previous = await sessionOf(request);
  // A half-finished sign-in of this browser ends with the session.
  if (cookiesOf(request)[PENDING_COOKIE]) reply.clearCookie(PENDING_COOKIE, pendingCookieOptions(config));
  const { token, session } = await sessions.create(userId, amr);
  if (previous) {
    // The same user signing in again (an app asked for a fresh sign-in) keeps their apps signed in:
    // the provider sessions move to the new session before the old one ends (lib/app-logout.ts).
    if (previous.user_id === userId)
      await repos.oidcModels.moveToPortalSession(previous.public_id, session.public_id);
    await sessions.revoke(previous.id_hash);
  }
  await request.server.services.repos.users.touchSignIn(userId, session.created_at);
  setSessionOf(request, session);
  setSessionCookie(reply, config, token);
  await issueXsrfCookie(request, reply);
}

/** The cookie naming a sign-in that waits for its second step: httpOnly, five minutes, sign-in calls only. */
export function pendingCookieOptions(config: Config): CookieSerializeOptions {
  return { ...cookieOptions(config, true), path: '/account', maxAge: PENDING_MS / 1000 };
}

/**
 * A password (or provider) sign-in that needs a second step, or the enrolment the team requires: no
 * session, only a pending row (five minutes, single use) named by an httpOnly cookie that the
 * second-step calls alone read. The browser's old session, if any, ends: it was signing in anew.
 */
export async function beginSecondStep(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  amr: readonly string[],
  mustEnrol: boolean,
): Promise<void> {
  const { sessions, config, twoStep } = request.server.services;
  const previous = await sessionOf(request);
  if (previous) {
    await sessions.revoke(previous.id_hash);
    clearSessionCookies(reply, config);
    setSessionOf(request, null);
  }
  const token = await twoStep.startPending(userId, amr, mustEnrol);
  reply.setCookie(PENDING_COOKIE, token, pendingCookieOptions(config));
  await issueXsrfCookie(request, reply);
}

/**
 * The sign-in after a first factor that a team's rule may not skip — a provider, or joining by
 * invitation: with the team's "require two-step sign-in" on, no session but a pending sign-in (the
 * enrolment when the user has no authenticator app yet) that the sign-in screen's second step finishes;
 * otherwise the session. What happened: `session`, or the second step waiting (`verify` or `enrol`).
 */
export async function beginSessionUnlessSecondStep(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  amr: readonly string[],
  teamRequiresTwoStep: boolean,
): Promise<'session' | 'verify' | 'enrol'> {
  if (!teamRequiresTwoStep) {
    await beginSession(request, reply, userId, amr);
    return 'session';
  }
  const totp = await request.server.services.repos.twoStep.totpOf(userId);
  const on = totp !== undefined && totp.confirmed_at !== null;
  await beginSecondStep(request, reply, userId, amr, !on);
  return on ? 'verify' : 'enrol';
}
