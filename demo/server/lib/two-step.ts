import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { TwoStepRepository } from '../db/two-step';
import type { Clock } from './clock';
import { randomToken, sha256 } from './crypto';
import type { Sealer } from './sealing';

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, thirty seconds. */
const PERIOD = 30;
const DIGITS = 6;
/** One step either side: a phone clock a little off still works. */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** A half-finished sign-in (and a WebAuthn challenge) lives five minutes. */
export const PENDING_MS = 5 * 60_000;
export const PENDING_COOKIE = 'acct_two_step';

/** What a code check found: accepted, wrong, or right but used already (a replay). */
export type CodeOutcome = 'ok' | 'wrong' | 'replay';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A recovery code as typed: case, spaces and dashes do not matter. */
export const normaliseRecoveryCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

/**
 * The authenticator app (TOTP through the `otpauth` package) and recovery codes. Keys are sealed at rest
 * (lib/sealing.ts); a code is accepted once (its time step is recorded); recovery codes are 80 random bits
 * each, stored as their SHA-256.
 */
const sealContext = (userId: string) => `totp_secrets:${userId}`;

export class TwoStepService {
  constructor(
    private readonly repo: TwoStepRepository,
    private readonly clock: Clock,
    /** KEY_ENCRYPTION_KEY's sealer (lib/keys.ts), as for the private signing keys. */
    private readonly sealer: Sealer,
    private readonly issuer: string,
  ) {}

  private totp(secret: string, label: string) {
    return new TOTP({
      issuer: this.issuer,
      label,
      algorithm: 'SHA1',
      digits: DIGITS,
      period: PERIOD,
      secret: Secret.fromBase32(secret),
    });
  }

  /**
   * A new key for a user: the `otpauth://` URI for the QR code, the key as text, and the key sealed for
   * storage (bound to the user's row: a sealed key copied to another user does not open).
   */
  newKey(userId: string, label: string): { uri: string; secret: string; sealed: string } {
    const secret = new Secret({ size: 20 }).base32;
    return {
      uri: this.totp(secret, label).toString(),
      secret,
      sealed: this.sealer.seal(secret, sealContext(userId)),
    };
  }

  /** Check a code against the user's key; a right code is used up (its step recorded). */
  async checkCode(userId: string, sealed: string, code: string): Promise<CodeOutcome> {
    if (!/^\d{6}$/.test(code)) return 'wrong';
    const now = this.clock.now();
    const totp = this.totp(this.sealer.open(sealed, sealContext(userId)), 'check');
    const delta = totp.validate({ token: code, timestamp: now, window: WINDOW });
    if (delta === null) return 'wrong';
    const step = totp.counter({ timestamp: now }) + delta;
    const fresh = await this.repo.useStep(userId, step, now, step - 2 * WINDOW - 1);
    return fresh ? 'ok' : 'replay';
  }

  /** Ten new recovery codes (shown once) and the hashes to store. */
  newRecoveryCodes(): { codes: string[]; hashes: string[] } {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
      const bytes = randomBytes(16);
      // 16 base32 characters (80 bits), in groups of four.
      const chars = Array.from(bytes, (byte) => BASE32[byte & 31]).join('');
      return chars.match(/.{4}/g)!.join('-');
    });
    return { codes, hashes: codes.map((code) => this.recoveryHash(code)) };
  }

  /** A pending sign-in: the cookie value (256 random bits; only its hash is stored). */
  async startPending(userId: string, amr: readonly string[], mustEnrol: boolean): Promise<string> {
    const token = randomToken(32);
    const now = this.clock.now();
    await this.repo.insertPending(
      {
        id_hash: sha256(token),
        user_id: userId,
        amr: amr.join(' '),
        must_enrol: mustEnrol ? 1 : 0,
        created_at: now,
        expires_at: now + PENDING_MS,
        used_at: null,
      },
      now - PENDING_MS,
    );
    return token;
  }

  /** The live pending sign-in a cookie value names. */
  pendingOf(token: string | undefined) {
    if (!token || token.length > 200) return Promise.resolve(undefined);
    return this.repo.findPending(sha256(token), this.clock.now());
  }

  recoveryHash(code: string): string {
    return sha256(`recovery:${normaliseRecoveryCode(code)}`);
  }
}
