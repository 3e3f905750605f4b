import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
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
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async isLocked(teamName: string, email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('login_failures')
      .select('locked_until')
      .where('team_name', '=', teamName)
      .where('email', '=', email)
      .executeTakeFirst();
    return !!row?.locked_until && row.locked_until > this.clock.now();
  }

  /** Count a failure atomically; returns the count and whether this failure locked the account. */
  async recordFailure(teamName: string, email: string): Promise<{ failures: number; locked: boolean }> {
    const now = this.clock.now();
    const lockUntil = now + LOCKOUT_MS;
    const row = await this.db
      .insertInto('login_failures')
      .values({ team_name: teamName, email, failures: 1, locked_until: null, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['team_name', 'email']).doUpdateSet({
          // A lock that has expired starts a fresh count.
          failures: sql<number>`case when login_failures.locked_until is not null and login_failures.locked_until <= ${now} then 1 else login_failures.failures + 1 end`,
          locked_until: sql<number | null>`case
            when login_failures.locked_until is not null and login_failures.locked_until > ${now} then login_failures.locked_until
            when login_failures.locked_until is not null then null
            when login_failures.failures + 1 >= ${LOCKOUT_THRESHOLD} then ${lockUntil}
            else null end`,
          updated_at: now,
        }),
      )
      .returning(['failures', 'locked_until'])
      .executeTakeFirstOrThrow();
    return { failures: row.failures, locked: !!row.locked_until && Number(row.locked_until) > now };
  }

  async clear(teamName: string, email: string): Promise<void> {
    await this.db
      .deleteFrom('login_failures')
      .where('team_name', '=', teamName)
      .where('email', '=', email)
      .execute();
  }
}
