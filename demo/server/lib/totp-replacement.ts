import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from './clock';
import { hmac, sha256 } from './crypto';

/** Long enough to scan a code with a new phone and type its first code; nothing is changed before. */
const REPLACEMENT_SECONDS = 10 * 60;
const AUDIENCE = 'acct:totp-replacement';

/** What a replacement ticket carries: whose, the new key (sealed), and the key it is to replace. */
export interface Replacement {
  userId: string;
  sealed: string;
  /** SHA-256 of the sealed key in force when the ticket was issued. */
  replaces: string;
}

/**
 * Moving the authenticator app to a new device without turning two-step sign-in off: the new key waits
 * in a signed, short-lived ticket the screen holds (no row, so the key in force stays untouched until a
 * code from the new app confirms it). The ticket is an HMAC JWT under a key derived for this use alone;
 * it names the key it replaces, so it is taken once (the swap is a compare-and-set on that key) and is
 * void as soon as the key changes some other way. Its new key is sealed as stored keys are; the screen
 * shows that key anyway, so the ticket tells the holder nothing new.
 */
export class TotpReplacements {
  private readonly key: Uint8Array;

  constructor(
    secret: Buffer,
    private readonly clock: Clock,
  ) {
    this.key = Buffer.from(hmac(secret, 'totp-replacement-ticket'), 'base64url');
  }

  async issue(userId: string, sealed: string, current: string): Promise<string> {
    const now = Math.floor(this.clock.now() / 1000);
    return new SignJWT({ key: sealed, old: sha256(current) })
      .setProtectedHeader({ alg: 'HS256', typ: 'acct-totp+jwt' })
      .setSubject(userId)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + REPLACEMENT_SECONDS)
      .sign(this.key);
  }

  /** The replacement a ticket carries for `userId`, or null when forged, expired or someone else's. */
  async read(ticket: string, userId: string): Promise<Replacement | null> {
    try {
      const { payload } = await jwtVerify(ticket, this.key, {
        algorithms: ['HS256'],
        typ: 'acct-totp+jwt',
        audience: AUDIENCE,
        subject: userId,
        currentDate: new Date(this.clock.now()),
      });
      if (typeof payload.key !== 'string' || typeof payload.old !== 'string') return null;
      return { userId, sealed: payload.key, replaces: payload.old };
    } catch {
      return null;
    }
  }
}
