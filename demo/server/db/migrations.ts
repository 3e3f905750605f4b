import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/**
 * Schema migrations, in order. Each is written with Kysely's schema builder and portable types
 * (text, integer, bigint) so it runs unchanged on SQLite and PostgreSQL. Never edit a migration that
 * has shipped: add a new one.
 */
// Migrations run before the schema exists, so they use an untyped Kysely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder is untyped by design
type AnyDb = Kysely<any>;

const migrations: Record<string, Migration> = {
  '001-foundation': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('teams')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('local_enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('google_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('azure_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('auth0_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('auth0_display_name', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('password_changed_at', 'bigint')
        .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('language', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('users_team_email', ['team_id', 'email'])
        .execute();

      await db.schema
        .createTable('user_permissions')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('permission', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_permissions_pk', ['user_id', 'permission'])
        .execute();

      await db.schema
        .createTable('external_accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('user_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('external_accounts_identity', ['team_id', 'provider', 'subject'])
        .addUniqueConstraint('external_accounts_user_provider', ['user_id', 'provider'])
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('public_id', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('policies')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('internal', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '002-sign-in': {
    async up(db: AnyDb) {
      // Consecutive failed sign-ins per (team, normalised e-mail) — also for unknown e-mails, so a lock
      // does not reveal which accounts exist.
      await db.schema
        .createTable('login_failures')
        .addColumn('team_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('login_failures_pk', ['team_name', 'email'])
        .execute();
      // Fixed-window counters (per address, per account…), in the database so every node shares them.
      await db.schema
        .createTable('rate_limits')
        .addColumn('bucket', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  '003-password-recovery': {
    async up(db: AnyDb) {
      // Reset tokens: only their SHA-256 is stored; one live token per user (a new request supersedes).
      await db.schema
        .createTable('password_resets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('superseded_at', 'bigint')
        .execute();
      await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
      // The white-label brand a team's mail is dressed in (null: the deployment's BRAND).
      await db.schema.alterTable('teams').addColumn('brand', 'text').execute();
    },
  },
  '004-external-providers': {
    async up(db: AnyDb) {
      // Per team and provider kind: where its OpenID provider is and how this server is registered there.
      await db.schema
        .createTable('team_providers')
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_secret', 'text', (c) => c.notNull())
        .addColumn('allowed_tenant', 'text')
        .addColumn('allowed_domain', 'text')
        .addColumn('link_by_email', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('team_providers_pk', ['team_id', 'kind'])
        .execute();
      // A sign-in (or account-linking) round trip in progress: single use, ten minutes, bound to the
      // browser that started it.
      await db.schema
        .createTable('oauth_flows')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('browser_hash', 'text', (c) => c.notNull())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('return_url', 'text')
        .addColumn('max_age', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
    },
  },
  '005-device-codes': {
    async up(db: AnyDb) {
      // QR code login: a device authorization made by a signed-in user, exchanged once by the mobile app.
      await db.schema
        .createTable('device_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_code', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('device_codes_user').on('device_codes').column('user_id').execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export const MIGRATION_NAMES = Object.keys(migrations);

/** Bring the schema up to date; throws with the failing migration's error. */
export async function migrate(db: AnyDb): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The integrity check of SQLite (design §4): 'ok' when the file is sound. */
export async function integrityCheck(db: AnyDb): Promise<string> {
  const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
  return rows[0]?.integrity_check ?? 'unknown';
}
