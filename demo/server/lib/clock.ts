/** The server's notion of now, in milliseconds; injectable so expiry can be tested without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that follows the system clock plus an offset the tests move. */
export class OffsetClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}
