export interface ThrowawayPostgres {
  /** The admin URL: database `postgres`, user `postgres`, on 127.0.0.1. */
  url: string;
  port: number;
  bin: string;
  stop(): Promise<void>;
}
export declare function startPostgres(): Promise<ThrowawayPostgres>;
