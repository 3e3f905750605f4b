import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Forget the failed sign-ins of (team, e-mail). Takes the database or an open transaction: a password
 * reset lifts the lock in the same transaction that sets the password.
 */
export async function clearLoginFailures(
  db: Kysely<Database>,
  teamName: string,
  email: string,
): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where('team_name', '=', teamName)
    .where('email', '=', email)
    .execute();
}

/** Failed sign-ins per (team name, normalised e-mail); lib/lockout.ts decides what they mean. */
export function loginFailuresRepository(db: Kysely<Database>) {
  /** The failures counted for (team, e-mail) and when its lock ends or ended; undefined when none. */
  const standing = (
    teamName: string,
    email: string,
  ): Promise<{ failures: number; locked_until: number | null } | undefined> =>
    db
      .selectFrom('login_failures')
      .select(['failures', 'locked_until'])
      .where('team_name', '=', teamName)
      .where('email', '=', email)
      .executeTakeFirst();
  return {
    /** When the lock on (team, e-mail) ends or ended; null or undefined when there is none. */
    async lockedUntil(teamName: string, email: string): Promise<number | null | undefined> {
      return (await standing(teamName, email))?.locked_until;
    },

    standing,

    /**
     * Count a failure in one atomic upsert: a lock that has run out starts a fresh count; the failure
     * that reaches `threshold` locks until `lockUntil`. The count and lock end as they now stand.
     */
    countFailure(
      teamName: string,
      email: string,
      now: number,
      threshold: number,
      lockUntil: number,
    ): Promise<{ failures: number; locked_until: number | null }> {
      return db
        .insertInto('login_failures')
        .values({ team_name: teamName, email, failures: 1, locked_until: null, updated_at: now })
        .onConflict((oc) =>
          oc.columns(['team_name', 'email']).doUpdateSet({
            // A lock that has expired starts a fresh count.
            failures: sql<number>`case when login_failures.locked_until is not null and login_failures.locked_until <= ${now} then 1 else login_failures.failures + 1 end`,
            locked_until: sql<number | null>`case
            when login_failures.locked_until is not null and login_failures.locked_until > ${now} then login_failures.locked_until
            when login_failures.locked_until is not null then null
            when login_failures.failures + 1 >= ${threshold} then ${lockUntil}
            else null end`,
            updated_at: now,
          }),
        )
        .returning(['failures', 'locked_until'])
        .executeTakeFirstOrThrow();
    },

    clear: (teamName: string, email: string) => clearLoginFailures(db, teamName, email),
  };
}

export type LoginFailuresRepository = ReturnType<typeof loginFailuresRepository>;
