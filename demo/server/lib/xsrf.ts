import type { Session } from '../db/schema';
import { hmac, randomToken, safeEqual } from './crypto';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
export const XSRF_FIELD = '__RequestVerificationToken';

/**
 * Anti-forgery tokens (design §4). With a session, the token is an HMAC of the session's id hash, so a
 * token from another session never matches. Before sign-in it is a signed double-submit token: a random
 * nonce and its HMAC, which must also equal the caller's own `XSRF-TOKEN` cookie.
 */
export class XsrfService {
  constructor(private readonly secret: Buffer) {}

  forSession(session: Session): string {
    return `s.${hmac(this.secret, `xsrf:s:${session.id_hash}`)}`;
  }

  anonymous(): string {
    const nonce = randomToken(18);
    return `a.${nonce}.${hmac(this.secret, `xsrf:a:${nonce}`)}`;
  }

  isValidAnonymous(token: string | undefined): boolean {
    if (!token) return false;
    const match = /^a\.([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{43})$/.exec(token);
    return !!match && safeEqual(match[2]!, hmac(this.secret, `xsrf:a:${match[1]!}`));
  }

  /** The cookie value a caller should hold: the session's token, or its current anonymous one if valid. */
  expectedCookie(session: Session | null, current: string | undefined): string {
    if (session) return this.forSession(session);
    return current && this.isValidAnonymous(current) ? current : this.anonymous();
  }

  /** Whether a presented token is acceptable for this caller. */
  verify(presented: string | undefined, session: Session | null, cookie: string | undefined): boolean {
    if (!presented || presented.length > 200) return false;
    if (session) return safeEqual(presented, this.forSession(session));
    return !!cookie && this.isValidAnonymous(presented) && safeEqual(presented, cookie);
  }
}
