import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  type PostgresDialectConfig,
  SqliteDialect,
  type SqliteDialectConfig,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import { ChangeFeed } from './changes';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: what this node hears of every node's writes (db/changes.ts); null on SQLite. */
  changes: ChangeFeed | null;
  /**
   * Runs `work` while holding the database-wide start lock (PostgreSQL: a session advisory lock), so
   * nodes starting together migrate and seed one after the other (docs/decisions/migration-lock.md).
   * SQLite has one process per file: it just runs `work`.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The advisory lock key of migrations and seeding (any fixed 64-bit number; this spells "acctmigr"). */
export const START_LOCK_KEY = 0x616363746d696772n;

/**
 * SQLite writes run in `BEGIN IMMEDIATE` transactions (design §4): the write lock is taken at the start,
 * so two writers never deadlock upgrading a read lock, and `busy_timeout` makes the second one wait.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

/**
 * PostgreSQL, telling `onWrite` after each statement that may have written (anything but a select) and
 * after each commit: the node's own writes then end its kept answers at once, without waiting for their
 * notification to come back (db/changes.ts).
 */
class WriteAwarePostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly onWrite: () => void,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const wrapped = new WeakSet<DatabaseConnection>();
    const acquire = driver.acquireConnection.bind(driver);
    driver.acquireConnection = async () => {
      const connection = await acquire();
      if (!wrapped.has(connection)) {
        wrapped.add(connection);
        const execute = connection.executeQuery.bind(connection);
        connection.executeQuery = async (query) => {
          try {
            return await execute(query);
          } finally {
            if (query.query.kind !== 'SelectQueryNode') this.onWrite();
          }
        };
      }
      return connection;
    };
    const commit = driver.commitTransaction.bind(driver);
    driver.commitTransaction = async (connection) => {
      await commit(connection);
      this.onWrite();
    };
    return driver;
  }
}

/** How many distinct SQL texts keep their prepared statement. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew, the largest single cost of a bearer call
 * (docs/decisions/bearer-lookup-once.md). The server's queries are a few dozen fixed texts with
 * parameters, so each text keeps its prepared statement. Kysely runs one query at a time on this one connection, so a
 * statement is never in use twice at once; SQLite re-prepares it by itself after a schema change.
 */
function withStatementCache(database: SqliteDatabase.Database): SqliteDialectConfig['database'] {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        // Maps iterate in insertion order: drop the oldest text.
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** The change feed behind each PostgreSQL Kysely instance opened here. */
const changeFeeds = new WeakMap<Kysely<Database>, ChangeFeed>();

/** The better-sqlite3 handle behind each SQLite Kysely instance, for `db/prepared.ts`'s direct reads. */
const sqliteHandles = new WeakMap<Kysely<Database>, SqliteDatabase.Database>();

/** The better-sqlite3 handle behind a Kysely instance opened here on SQLite; undefined on PostgreSQL. */
export function sqliteHandleOf(kysely: Kysely<Database>): SqliteDatabase.Database | undefined {
  return sqliteHandles.get(kysely);
}

/**
 * How many rows have changed through a SQLite Kysely instance's connection since it opened — SQLite's
 * `total_changes()`, which counts every row an INSERT, UPDATE or DELETE touches, those of triggers
 * included — or undefined while a transaction is open (its writes may not stand). On PostgreSQL, where
 * other nodes write too, the count of the node's change feed instead (db/changes.ts): it moves when any
 * node commits a write to a table a kept answer may hold, and is undefined while the feed is down.
 *
 * While the count stands still, no row of the database has changed: the connection is the only one to
 * its file (exclusive locking mode, `openSqlite`), and the count only grows (a rolled-back write stays
 * counted). The statement reads no table, so it is cheap (docs/decisions/bearer-read-cache.md).
 */
export function changeCounterOf(kysely: Kysely<Database>): (() => number | undefined) | undefined {
  const feed = changeFeeds.get(kysely);
  if (feed) return feed.counter;
  const database = sqliteHandles.get(kysely);
  if (!database) return undefined;
  const count = database.prepare('select total_changes()').pluck(true);
  return () => (database.inTransaction ? undefined : (count.get() as number));
}

/** Rows SQLite samples per index when it gathers statistics: enough for a team's lists, quick at open. */
const ANALYSIS_LIMIT = 2000;
const OPTIMIZE_MS = 3600_000;

function openSqlite(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SqliteDatabase(path);
  // One process owns the file (PostgreSQL is the way to several app nodes, design §4). In exclusive
  // locking mode WAL keeps its index in the process's memory, so a read takes no file lock on a
  // shared-memory index (docs/decisions/sqlite-exclusive-locking.md). Set before the first access, as SQLite requires. A second process opening the same
  // file waits out better-sqlite3's timeout (5 s, long enough for a stopping server to let go), then
  // fails with a clear message instead of sharing it.
  database.pragma('locking_mode = EXCLUSIVE');
  try {
    database.pragma('journal_mode = WAL');
  } catch (error) {
    database.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
      throw new Error(
        `${path} is in use by another process: one server per SQLite file (for several, use PostgreSQL: DATABASE_URL)`,
        { cause: error },
      );
    }
    throw error;
  }
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  database.pragma('synchronous = FULL');
  // Without table statistics the planner walks a team's whole index for a filter that two indexes
  // answer (a SCIM userName among 100,000 members: 70 ms, 0.2 ms with them). SQLite's advice for a
  // long-lived connection: optimize at open, sampling each index, then now and then
  // (docs/decisions/sqlite-statistics.md).
  database.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
  database.pragma('optimize = 0x10002');
  const optimizer = setInterval(() => {
    if (database.open && !database.inTransaction) database.pragma('optimize');
  }, OPTIMIZE_MS).unref();
  const kysely = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }),
  });
  sqliteHandles.set(kysely, database);
  return {
    kysely,
    dialect: 'sqlite',
    changes: null,
    exclusive: (work) => work(),
    close: () => {
      clearInterval(optimizer);
      return kysely.destroy();
    },
  };
}

async function openPostgres(url: string): Promise<Db> {
  const pg = await import('pg');
  // bigint (int8) columns hold millisecond times: read them as numbers, not strings.
  pg.default.types.setTypeParser(20, (value: string) => Number(value));
  const pool = new pg.default.Pool({ connectionString: url, max: 10 });
  const changes = new ChangeFeed(pg.default.Client, url);
  const kysely = new Kysely<Database>({
    dialect: new WriteAwarePostgresDialect({ pool }, () => changes.bump()),
  });
  changes.start();
  changeFeeds.set(kysely, changes);
  return {
    kysely,
    dialect: 'postgres',
    changes,
    async exclusive(work) {
      // A connection of its own holds the lock; the work runs on the pool's others.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [START_LOCK_KEY.toString()]);
        try {
          return await work();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [START_LOCK_KEY.toString()]);
        }
      } finally {
        client.release();
      }
    },
    async close() {
      await changes.close();
      await kysely.destroy();
    },
  };
}

/** `postgres://…` → PostgreSQL; anything else is a SQLite file path. */
export async function openDatabase(databaseUrl: string): Promise<Db> {
  return /^postgres(ql)?:\/\//i.test(databaseUrl) ? openPostgres(databaseUrl) : openSqlite(databaseUrl);
}
