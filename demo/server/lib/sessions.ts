import type { Session } from '../db/schema';
import type { SessionsRepository } from '../db/sessions';
import type { Clock } from './clock';
import { randomToken, sha256 } from './crypto';

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
