import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from './clock';

export interface Limit {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

/**
 * Fixed-window rate limits kept in the database (design §4: counters shared by every app node). One
 * atomic upsert per hit: a window that has ended starts again at 1.
 */
export class RateLimiter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** Count a hit on `bucket`; returns whether it is within the limit, and the seconds until the window resets. */
  async hit(bucket: string, limit: Limit): Promise<{ allowed: boolean; retryAfter: number }> {
    const now = this.clock.now();
    const expired = now - limit.windowMs;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ bucket, window_start: now, hits: 1 })
      .onConflict((oc) =>
        oc.column('bucket').doUpdateSet({
          hits: sql<number>`case when rate_limits.window_start <= ${expired} then 1 else rate_limits.hits + 1 end`,
          window_start: sql<number>`case when rate_limits.window_start <= ${expired} then ${now} else rate_limits.window_start end`,
        }),
      )
      .returning(['hits', 'window_start'])
      .executeTakeFirstOrThrow();
    const retryAfter = Math.max(1, Math.ceil((Number(row.window_start) + limit.windowMs - now) / 1000));
    return { allowed: row.hits <= limit.max, retryAfter };
  }
}
