import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

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

function openSqlite(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SqliteDatabase(path);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  database.pragma('synchronous = FULL');
  const kysely = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database }) });
  return {
    kysely,
    dialect: 'sqlite',
    close: () => kysely.destroy(),
  };
}

async function openPostgres(url: string): Promise<Db> {
  const pg = await import('pg');
  // bigint (int8) columns hold millisecond times: read them as numbers, not strings.
  pg.default.types.setTypeParser(20, (value: string) => Number(value));
  const pool = new pg.default.Pool({ connectionString: url, max: 10 });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    dialect: 'postgres',
    close: () => kysely.destroy(),
  };
}

/** `postgres://…` → PostgreSQL; anything else is a SQLite file path. */
export async function openDatabase(databaseUrl: string): Promise<Db> {
  return /^postgres(ql)?:\/\//i.test(databaseUrl) ? openPostgres(databaseUrl) : openSqlite(databaseUrl);
}
