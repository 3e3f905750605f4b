import type { LoginFailuresRepository } from '../db/login-failures';
import type { Clock } from './clock';

/** Design §4: 5 consecutive failures lock sign-in for 15 minutes. */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MS = 15 * 60_000;

/**
 * Failed sign-ins per (team, normalised e-mail), whether or not the account exists. A lock that has run
 * out starts the count again; a successful sign-in (or a password reset) clears it.
 */
export class Lockout {
  constructor(
    private readonly failures: LoginFailuresRepository,
    private readonly clock: Clock,
  ) {}

  async isLocked(teamName: string, email: string): Promise<boolean> {
    return (await this.standing(teamName, email)).locked;
  }

  /**
   * Whether (team, e-mail) is locked, and the failures that count towards the next lock (none once a
   * lock has run out: the next failure starts again at 1).
   */
  async standing(teamName: string, email: string): Promise<{ locked: boolean; failures: number }> {
    const row = await this.failures.standing(teamName, email);
    if (!row) return { locked: false, failures: 0 };
    const lockedUntil = row.locked_until === null ? null : Number(row.locked_until);
    if (lockedUntil !== null)
      return lockedUntil > this.clock.now()
        ? { locked: true, failures: row.failures }
        : { locked: false, failures: 0 };
    return { locked: false, failures: Number(row.failures) };
  }

  /** Count a failure atomically; returns the count and whether this failure locked the account. */
  async recordFailure(teamName: string, email: string): Promise<{ failures: number; locked: boolean }> {
    const now = this.clock.now();
    const row = await this.failures.countFailure(teamName, email, now, LOCKOUT_THRESHOLD, now + LOCKOUT_MS);
    return { failures: row.failures, locked: !!row.locked_until && Number(row.locked_until) > now };
  }

  async clear(teamName: string, email: string): Promise<void> {
    await this.failures.clear(teamName, email);
  }
}
