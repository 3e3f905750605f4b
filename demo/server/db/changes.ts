import type pg from 'pg';
import { CHANGES_CHANNEL } from './migrations';

/** Waits between reconnection attempts of the listening connection: 0.1 s doubling up to 5 s. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5000;

/**
 * What a node hears of the other nodes' writes on PostgreSQL (docs/decisions/cross-node-invalidation.md):
 * one dedicated connection LISTENs on CHANGES_CHANNEL, where the triggers of migration 008 send, at each
 * commit, the name of every table the transaction wrote that a cached answer may hold.
 *
 * `counter()` plays the part SQLite's `total_changes()` plays for `keptUntilChange`: it moves on every
 * notification, and on every (re)connection, since notifications sent while the connection was down are
 * lost. While the connection is not listening it is undefined, so nothing is cached then (fail closed).
 */
export class ChangeFeed {
  private client: pg.Client | null = null;
  private listening = false;
  private count = 0;
  private closed = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private pid: number | null = null;
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(
    private readonly Client: typeof pg.Client,
    private readonly url: string,
  ) {}

  /** Starts listening (and keeps reconnecting until `close()`). */
  start(): void {
    void this.connect();
  }

  readonly counter = (): number | undefined => (this.listening ? this.count : undefined);

  /** Counts a write of this node's own (db/connect.ts), known before its notification comes back. */
  bump(): void {
    this.count++;
  }

  get isListening(): boolean {
    return this.listening;
  }

  /** The server process of the listening connection (for tests that cut it), while listening. */
  get backendPid(): number | null {
    return this.listening ? this.pid : null;
  }

  /** Calls `listener` when a transaction that wrote `table` commits (and after every reconnection). */
  on(table: string, listener: () => void): () => void {
    let set = this.listeners.get(table);
    if (!set) this.listeners.set(table, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  private emit(table: string | null): void {
    const targets = table ? [this.listeners.get(table)] : [...this.listeners.values()];
    for (const set of targets) for (const listener of set ?? []) listener();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new this.Client({ connectionString: this.url, application_name: 'acct-changes' });
    this.client = client;
    const down = () => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = null;
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
      this.retryTimer.unref();
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    };
    client.on('error', down);
    client.on('end', down);
    client.on('notification', (message) => {
      this.count++;
      this.emit(message.payload ?? null);
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANGES_CHANNEL}`);
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      if (this.client !== client) {
        // Closed (or replaced) while connecting: this connection is nobody's.
        await client.end().catch(() => undefined);
        return;
      }
      this.pid = rows[0]?.pid ?? null;
      // Whatever was written while no one listened: every kept answer goes, every listener hears.
      this.count++;
      this.listening = true;
      this.retryMs = RETRY_FIRST_MS;
      this.emit(null);
    } catch {
      down();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
