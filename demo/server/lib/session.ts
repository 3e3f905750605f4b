/*
 * The session path in one place: the sessions themselves (create, resolve, revoke), their cookie, the
 * request's session resolved once, the anti-forgery cookie that goes with it, and signing in (a session,
 * or a second step first).
 */

import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Session } from '../db/schema';
import type { SessionsRepository } from '../db/sessions';
import type { Clock } from './clock';
import { cookiesOf } from './cookies';
import { randomToken, sha256 } from './crypto';
import { PENDING_COOKIE, PENDING_MS } from './two-step';
import { XSRF_COOKIE } from './xsrf';

/** Design §4: sessions end after 8 idle hours, and 7 days after sign-in at the latest. */
export const SESSION_IDLE_MS = 8 * 3600_000;
export const SESSION_MAX_MS = 7 * 24 * 3600_000;
/** `last_seen_at` is written at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = 60_000;

export const SESSION_COOKIE = 'acct_session';

export interface NewSession {
  /** The cookie value (256 random bits); only its hash is stored. */
  token: string;
  session: Session;
}

export class SessionService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
  ) {}

  /** A new session; `amr` says how the user signed in (RFC 8176 values), for the tokens. */
  async create(userId: string, amr: readonly string[] = ['pwd']): Promise<NewSession> {
    const now = this.clock.now();
    const token = randomToken(32);
    const session: Session = {
      id_hash: sha256(token),
      public_id: randomToken(24),
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_MAX_MS,
      revoked_at: null,
      amr: amr.join(' '),
      user_agent: null,
      address: null,
    };
    await this.sessions.insert(session);
    return { token, session };
  }

  /** The live session for a cookie value: not revoked, not expired, not idle too long. */
  async resolve(token: string | undefined): Promise<Session | null> {
    if (!token || token.length > 200) return null;
    const now = this.clock.now();
    const session = await this.sessions.findLive(sha256(token), now, now - SESSION_IDLE_MS);
    if (!session) return null;
    if (now - session.last_seen_at > TOUCH_EVERY_MS) {
      await this.sessions.touch(session.id_hash, now);
      session.last_seen_at = now;
    }
    return session;
  }

  async revoke(idHash: string): Promise<void> {
    await this.sessions.revoke(idHash, this.clock.now());
  }

  /** Revoke every session of a user, except `keep` (the caller's own, when it should survive). */
  revokeAllForUser(userId: string, keep?: string): Promise<number> {
    return this.sessions.revokeAllForUser(userId, this.clock.now(), keep);
  }
}

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
 * with `userChoiceCounts`, also when the user turned two-step sign-in on themselves. Otherwise the
 * session. What happened: `session`, or the second step waiting (`verify` or `enrol`).
 */
export async function beginSessionUnlessSecondStep(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  amr: readonly string[],
  teamRequiresTwoStep: boolean,
  userChoiceCounts = false,
): Promise<'session' | 'verify' | 'enrol'> {
  const totp =
    teamRequiresTwoStep || userChoiceCounts
      ? await request.server.services.repos.twoStep.totpOf(userId)
      : undefined;
  const on = totp !== undefined && totp.confirmed_at !== null;
  if (!teamRequiresTwoStep && !on) {
    await beginSession(request, reply, userId, amr);
    return 'session';
  }
  await beginSecondStep(request, reply, userId, amr, !on);
  return on ? 'verify' : 'enrol';
}
