import type { FastifyReply } from 'fastify';
import type { RateLimitsRepository } from '../db/rate-limits';
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
    private readonly counters: RateLimitsRepository,
    private readonly clock: Clock,
  ) {}

  /** Count a hit on `bucket`; returns whether it is within the limit, and the seconds until the window resets. */
  async hit(bucket: string, limit: Limit): Promise<{ allowed: boolean; retryAfter: number }> {
    const now = this.clock.now();
    const row = await this.counters.hit(bucket, now, limit.windowMs);
    const retryAfter = Math.max(1, Math.ceil((Number(row.window_start) + limit.windowMs - now) / 1000));
    return { allowed: row.hits <= limit.max, retryAfter };
  }

  /** The hits on `bucket` in its current window, without counting one. */
  count(bucket: string, limit: Limit): Promise<number> {
    return this.counters.hits(bucket, this.clock.now(), limit.windowMs);
  }

  /** Count a hit; past the limit answer 429 with `Retry-After` (and return true: the route is done). */
  async refuse(reply: FastifyReply, bucket: string, limit: Limit): Promise<boolean> {
    const { allowed, retryAfter } = await this.hit(bucket, limit);
    if (allowed) return false;
    reply
      .code(429)
      .header('Retry-After', String(retryAfter))
      .send({ message: 'too many requests, try again later' });
    return true;
  }
}
