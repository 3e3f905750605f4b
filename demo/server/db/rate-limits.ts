import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';

/** Fixed-window hit counters shared by every app node (lib/rate-limit.ts sets the limits). */
export function rateLimitsRepository(db: Kysely<Database>) {
  return {
    /**
     * Count a hit on `bucket` in one atomic upsert: a window that started `windowMs` or more before
     * `now` starts again at 1. The bucket's hits and window start as they now stand.
     */
    hit(bucket: string, now: number, windowMs: number): Promise<{ hits: number; window_start: number }> {
      const expired = now - windowMs;
      return db
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
    },

    /** The hits on `bucket` in its current window (0 when it has none or it ended), counting none. */
    async hits(bucket: string, now: number, windowMs: number): Promise<number> {
      const row = await db
        .selectFrom('rate_limits')
        .select('hits')
        .where('bucket', '=', bucket)
        .where('window_start', '>', now - windowMs)
        .executeTakeFirst();
      return Number(row?.hits ?? 0);
    },
  };
}

export type RateLimitsRepository = ReturnType<typeof rateLimitsRepository>;
