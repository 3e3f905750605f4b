import { Migrator, PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { memberTerms, sortKey } from './member-terms';

/**
 * Schema migrations, in order. Each is written with Kysely's schema builder and portable types
 * (text, integer, bigint) so it runs unchanged on SQLite and PostgreSQL. Never edit a migration that
 * has shipped: add a new one.
 */
// Migrations run before the schema exists, so they use an untyped Kysely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder is untyped by design
type AnyDb = Kysely<any>;

/** Whether a migration runs on PostgreSQL (the few statements that cannot be written portably). */
const onPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The tables whose writes a node must hear about from the others (PostgreSQL: `NOTIFY` on the channel
 * CHANGES_CHANNEL, db/changes.ts): what a bearer call reads of its caller (users, teams, sessions, the
 * permissions and groups) and what ends sessions or changes users. A column listed under `except` is
 * written on every sign-in or request (last seen) and changes nothing a cached answer holds.
 * docs/decisions/cross-node-invalidation.md.
 */
export const NOTIFYING_TABLES: Record<string, { columns: readonly string[] }> = {
  users: {
    columns: [
      'id',
      'team_id',
      'email',
      'name',
      'password_hash',
      'password_changed_at',
      'locked',
      'language',
      'disabled_at',
      'name_key',
    ],
  },
  teams: {
    columns: [
      'id',
      'name',
      'display_name',
      'disabled',
      'local_enabled',
      'google_enabled',
      'azure_enabled',
      'auth0_enabled',
      'auth0_display_name',
      'brand',
      'seat_limit',
      'member_count',
      'storage_used_bytes',
      'storage_limit_bytes',
      'apple_enabled',
      'manager_name',
      'manager_email',
      'manager_phone',
    ],
  },
  sessions: { columns: ['id_hash', 'public_id', 'user_id', 'created_at', 'expires_at', 'revoked_at'] },
  user_permissions: { columns: ['user_id', 'permission'] },
  groups: { columns: ['id', 'team_id', 'name', 'name_key'] },
  group_members: { columns: ['group_id', 'user_id'] },
};

/** The channel every node listens on (db/changes.ts). */
export const CHANGES_CHANNEL = 'acct_changes';

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
  '006-team-admin': {
    async up(db: AnyDb) {
      const postgres = onPostgres(db);
      // Sort and search keys are compared byte by byte, so a prefix is one index range on both
      // databases: PostgreSQL would otherwise compare them by the database's locale, where a prefix's
      // matches need not be contiguous.
      const byteOrder = postgres ? sql`collate "C"` : sql``;

      // Seats, storage, Apple sign-in, the support panel, and the member count the seat bar and the
      // member list read (kept by the triggers below; counting 100,000 rows on each call would not do).
      for (const column of [
        db.schema.alterTable('teams').addColumn('seat_limit', 'integer', (c) => c.notNull().defaultTo(10)),
        db.schema.alterTable('teams').addColumn('member_count', 'integer', (c) => c.notNull().defaultTo(0)),
        db.schema
          .alterTable('teams')
          .addColumn('storage_used_bytes', 'bigint', (c) => c.notNull().defaultTo(0)),
        db.schema
          .alterTable('teams')
          .addColumn('storage_limit_bytes', 'bigint', (c) => c.notNull().defaultTo(10_000_000_000)),
        db.schema.alterTable('teams').addColumn('apple_enabled', 'integer', (c) => c.notNull().defaultTo(0)),
        db.schema.alterTable('teams').addColumn('manager_name', 'text'),
        db.schema.alterTable('teams').addColumn('manager_email', 'text'),
        db.schema.alterTable('teams').addColumn('manager_phone', 'text'),
        db.schema.alterTable('users').addColumn('disabled_at', 'bigint'),
        db.schema.alterTable('users').addColumn('last_sign_in_at', 'bigint'),
        db.schema
          .alterTable('users')
          .addColumn('name_key', 'text', (c) => c.modifyFront(byteOrder).notNull().defaultTo('')),
        // The invitation a provider round trip accepts, if any.
        db.schema.alterTable('oauth_flows').addColumn('invitation_id', 'text'),
      ]) {
        await column.execute();
      }
      // The member list's order (name, then id) and its keyset paging: one index range.
      await db.schema
        .createIndex('users_team_name')
        .on('users')
        .columns(['team_id', 'name_key', 'id'])
        .execute();

      // The team's owners (the last-owner rule) without reading every member's permissions.
      await db.schema
        .createIndex('user_permissions_permission')
        .on('user_permissions')
        .columns(['permission', 'user_id'])
        .execute();

      // Member search: each member's searchable texts (the name from each of its words on, and the
      // e-mail address), folded; a prefix of any of them is one range of the primary key.
      await db.schema
        .createTable('member_terms')
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('term', 'text', (c) => c.modifyFront(byteOrder).notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('shadow', 'integer', (c) => c.notNull())
        .execute();
      // A search reads this index alone: the range of terms, and `shadow` to skip a member's repeats.
      await db.schema
        .createIndex('member_terms_search')
        .on('member_terms')
        .columns(['team_id', 'term', 'user_id', 'shadow'])
        .unique()
        .execute();
      await db.schema
        .createIndex('member_terms_user')
        .on('member_terms')
        .columns(['user_id', 'term'])
        .execute();

      // Invitations by e-mail: only the token's SHA-256 is stored; a resend supersedes the row with a
      // new one (a new id and token), so the old link can say why it no longer works.
      await db.schema
        .createTable('invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('accepted_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('superseded_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('invitations_team_email')
        .on('invitations')
        .columns(['team_id', 'email'])
        .execute();
      await db.schema
        .createIndex('invitations_team_sent')
        .on('invitations')
        .columns(['team_id', 'sent_at'])
        .execute();

      // Groups: names unique per team regardless of case (name_key).
      await db.schema
        .createTable('groups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.modifyFront(byteOrder).notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('groups_team_name', ['team_id', 'name_key'])
        .execute();
      await db.schema
        .createTable('group_members')
        .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
        .execute();
      await db.schema.createIndex('group_members_user').on('group_members').column('user_id').execute();

      // The admin actions of each team. Who acted and on whom are kept as text, so the trail outlives
      // the people in it.
      await db.schema
        .createTable('audit_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text')
        .addColumn('actor_email', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('audit_events_team_time')
        .on('audit_events')
        .columns(['team_id', 'created_at', 'id'])
        .execute();

      // A team's API credentials (RFC 6749 §4.4 client credentials): the secret's SHA-256 only.
      await db.schema
        .createTable('team_api_clients')
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      // The member count follows every insert and delete of a user, in the same transaction, whoever
      // writes the row. Triggers are the one part written per database.
      if (postgres) {
        await sql`create function team_member_count() returns trigger language plpgsql as $$
          begin
            if tg_op = 'INSERT' then
              update teams set member_count = member_count + 1 where id = new.team_id;
            else
              update teams set member_count = member_count - 1 where id = old.team_id;
            end if;
            return null;
          end $$`.execute(db);
        await sql`create trigger users_member_count after insert or delete on users
          for each row execute function team_member_count()`.execute(db);
      } else {
        await sql`create trigger users_member_count_insert after insert on users begin
          update teams set member_count = member_count + 1 where id = new.team_id; end`.execute(db);
        await sql`create trigger users_member_count_delete after delete on users begin
          update teams set member_count = member_count - 1 where id = old.team_id; end`.execute(db);
      }

      // The users there are already: their count, sort key and search terms.
      await sql`update teams set member_count = (select count(*) from users where users.team_id = teams.id)`.execute(
        db,
      );
      const users = await db.selectFrom('users').select(['id', 'team_id', 'name', 'email']).execute();
      for (const user of users as Array<{ id: string; team_id: string; name: string; email: string }>) {
        await db
          .updateTable('users')
          .set({ name_key: sortKey(user.name) })
          .where('id', '=', user.id)
          .execute();
        for (const { term, shadow } of memberTerms(user.name, user.email)) {
          await db
            .insertInto('member_terms')
            .values({ team_id: user.team_id, term, user_id: user.id, shadow })
            .execute();
        }
      }
    },
  },
  '007-two-step': {
    async up(db: AnyDb) {
      // How the session was signed in (RFC 8176 `amr` values, space-separated): tokens carry it.
      await db.schema
        .alterTable('sessions')
        .addColumn('amr', 'text', (c) => c.notNull().defaultTo('pwd'))
        .execute();
      await db.schema
        .alterTable('teams')
        .addColumn('require_two_step', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      // The authenticator-app key, sealed with KEY_ENCRYPTION_KEY when set (lib/sealing.ts);
      // `confirmed_at` null: enrolled but not yet confirmed with a code, so not in force.
      await db.schema
        .createTable('totp_secrets')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('sealed_secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('confirmed_at', 'bigint')
        .execute();
      // Time steps whose code was accepted: a code works once, even inside its window.
      await db.schema
        .createTable('totp_used_steps')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('step', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('totp_used_steps_pk', ['user_id', 'step'])
        .execute();
      // Recovery codes: the SHA-256 of each (80 random bits) only; single use.
      await db.schema
        .createTable('recovery_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute();
      // A sign-in waiting for its second step (or for the enrolment the team requires): the cookie's
      // SHA-256 only; five minutes, single use, and no session until it is done.
      await db.schema
        .createTable('pending_sign_ins')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('amr', 'text', (c) => c.notNull())
        .addColumn('must_enrol', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('pending_sign_ins_user').on('pending_sign_ins').column('user_id').execute();

      await db.schema
        .createTable('passkeys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull())
        .addColumn('transports', 'text', (c) => c.notNull())
        .addColumn('device_type', 'text', (c) => c.notNull())
        .addColumn('backed_up', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
      // WebAuthn challenges: single use, five minutes, bound to a session (registration) or to the
      // browser's cookie (sign-in); only their SHA-256 and the binding's are stored.
      await db.schema
        .createTable('webauthn_challenges')
        .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('binding_hash', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
    },
  },
  '008-cluster': {
    async up(db: AnyDb) {
      // Signing keys and server secrets live in the database, so every node signs and verifies alike
      // (docs/decisions/keys-in-database.md). `generation` is unique: two nodes rotating at once insert
      // the same generation, and one of them loses the race instead of both adding a key.
      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('generation', 'integer', (c) => c.notNull().unique())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('private_jwk', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('not_before', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      if (!onPostgres(db)) return;
      // One notification per statement, delivered at commit (and folded into one per transaction).
      await sql`create function notify_change() returns trigger language plpgsql as $$
        begin
          perform pg_notify(${sql.lit(CHANGES_CHANNEL)}, tg_table_name);
          return null;
        end $$`.execute(db);
      for (const [table, { columns }] of Object.entries(NOTIFYING_TABLES)) {
        const of = sql.join(columns.map((column) => sql.id(column)));
        await sql`create trigger ${sql.id(`${table}_notify_change`)}
          after insert or delete or update of ${of} on ${sql.table(table)}
          for each statement execute function notify_change()`.execute(db);
      }
      // A new signing key: every node reloads the keys (lib/keys.ts) instead of waiting for its timer.
      await sql`create trigger signing_keys_notify_change after insert or delete on signing_keys
        for each statement execute function notify_change()`.execute(db);
    },
  },
  '009-account-activity': {
    async up(db: AnyDb) {
      // What the sessions screen shows of each session: the browser's User-Agent (parsed when listed)
      // and, when SESSION_ADDRESSES is on, the address it signed in from.
      for (const column of [
        db.schema.alterTable('sessions').addColumn('user_agent', 'text'),
        db.schema.alterTable('sessions').addColumn('address', 'text'),
      ]) {
        await column.execute();
      }

      // The user's own security log (lib/activity.ts): kinds are an open list of words, the detail JSON.
      await db.schema
        .createTable('activity_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('activity_events_user')
        .on('activity_events')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema
        .createIndex('activity_events_created')
        .on('activity_events')
        .column('created_at')
        .execute();

      // The browsers (family + operating system) each user has signed in with: a new one is mailed about.
      await db.schema
        .createTable('known_devices')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_key', 'text', (c) => c.notNull())
        .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('known_devices_pk', ['user_id', 'device_key'])
        .execute();

      // E-mail changes waiting for the new address's confirmation (and the old address's undo link).
      await db.schema
        .createTable('email_changes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('old_email', 'text', (c) => c.notNull())
        .addColumn('new_email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('undo_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('confirmed_at', 'bigint')
        .addColumn('superseded_at', 'bigint')
        .addColumn('undone_at', 'bigint')
        .execute();
      await db.schema.createIndex('email_changes_user').on('email_changes').column('user_id').execute();
    },
  },
  '010-oidc-models': {
    async up(db: AnyDb) {
      // The OpenID Provider's state (oidc-provider's models: sessions, interactions, codes, tokens,
      // grants), one row per model and id, its payload as JSON (db/oidc-models.ts). The columns beside
      // the payload are what the provider looks rows up by, and the expiry and single use it relies on.
      await db.schema
        .createTable('oidc_models')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('user_code', 'text')
        .addColumn('uid', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('consumed_at', 'bigint')
        .addPrimaryKeyConstraint('oidc_models_pk', ['model', 'id'])
        .execute();
      await db.schema.createIndex('oidc_models_grant').on('oidc_models').columns(['grant_id']).execute();
      await db.schema.createIndex('oidc_models_uid').on('oidc_models').columns(['uid']).execute();
      await db.schema.createIndex('oidc_models_user_code').on('oidc_models').columns(['user_code']).execute();
      await db.schema.createIndex('oidc_models_expires').on('oidc_models').columns(['expires_at']).execute();
    },
  },
  '011-passkey-toggle': {
    async up(db: AnyDb) {
      // Passkey sign-in (as the first step) a team's admins can turn off; on for every existing team.
      await db.schema
        .alterTable('teams')
        .addColumn('passkeys_enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  },
  '012-oidc-portal-sessions': {
    async up(db: AnyDb) {
      // The portal session (its public id) that finished the login of each provider session, and
      // whether it has ended since: then the apps that took part are told (back-channel logout,
      // lib/app-logout.ts). Triggers mark it in the transaction that ends the portal session, whatever
      // ends it (a sign-out, the sessions screen, a password reset, a member disabled, a user deleted:
      // their sessions go by cascade), so the sweep after each request reads only what is marked.
      await db.schema.alterTable('oidc_models').addColumn('portal_session', 'text').execute();
      await db.schema.alterTable('oidc_models').addColumn('portal_ended', 'integer').execute();
      await db.schema
        .createIndex('oidc_models_portal_session')
        .on('oidc_models')
        .columns(['portal_session'])
        .execute();
      await db.schema
        .createIndex('oidc_models_portal_ended')
        .on('oidc_models')
        .columns(['portal_ended'])
        .execute();
      if (onPostgres(db)) {
        await sql`create function oidc_portal_session_ended() returns trigger language plpgsql as $$
          begin
            update oidc_models set portal_ended = 1
              where model = 'Session' and portal_session = old.public_id;
            return null;
          end $$`.execute(db);
        await sql`create trigger sessions_revoked_oidc after update of revoked_at on sessions for each row
          when (old.revoked_at is null and new.revoked_at is not null)
          execute function oidc_portal_session_ended()`.execute(db);
        await sql`create trigger sessions_deleted_oidc after delete on sessions for each row
          when (old.revoked_at is null) execute function oidc_portal_session_ended()`.execute(db);
      } else {
        await sql`create trigger sessions_revoked_oidc after update of revoked_at on sessions
          when old.revoked_at is null and new.revoked_at is not null begin
          update oidc_models set portal_ended = 1
            where model = 'Session' and portal_session = new.public_id; end`.execute(db);
        await sql`create trigger sessions_deleted_oidc after delete on sessions
          when old.revoked_at is null begin
          update oidc_models set portal_ended = 1
            where model = 'Session' and portal_session = old.public_id; end`.execute(db);
      }
    },
  },
  '013-oidc-grant-owner': {
    async up(db: AnyDb) {
      // The connected apps screen lists a user's grants and when an app last used one: the grant's
      // user as a column (looked up by it), and the time of the last code or refresh token under it.
      await db.schema.alterTable('oidc_models').addColumn('account_id', 'text').execute();
      await db.schema.alterTable('oidc_models').addColumn('used_at', 'bigint').execute();
      await db.schema.createIndex('oidc_models_account').on('oidc_models').columns(['account_id']).execute();
    },
  },
  '014-team-apps': {
    async up(db: AnyDb) {
      // A team's own applications (OpenID Connect clients its admins register, db/team-apps.ts). The
      // team API clients become machine apps with their ids, secret hashes and scopes, so their
      // credentials keep working. URI lists are JSON arrays; the secret's SHA-256 only (null for the
      // public kinds, which have none).
      await db.schema
        .createTable('team_apps')
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('backchannel_logout_uri', 'text')
        .addColumn('third_party', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('secret_hash', 'text')
        .addColumn('scopes', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('team_apps_team').on('team_apps').columns(['team_id', 'name']).execute();
      await sql`insert into team_apps (client_id, team_id, name, kind, secret_hash, scopes, created_at,
        updated_at) select client_id, team_id, name, 'machine', secret_hash, scopes, created_at, created_at
        from team_api_clients`.execute(db);
      await db.schema.dropTable('team_api_clients').execute();
      // The client an object of the provider was issued to (the payload's `clientId`): disabling or
      // deleting an app deletes its grants and everything issued under them by this column.
      await db.schema.alterTable('oidc_models').addColumn('client_id', 'text').execute();
      await db.schema.createIndex('oidc_models_client').on('oidc_models').columns(['client_id']).execute();
      if (onPostgres(db))
        await sql`update oidc_models set client_id = payload::json->>'clientId'`.execute(db);
      else await sql`update oidc_models set client_id = json_extract(payload, '$.clientId')`.execute(db);
    },
  },
  '015-team-domains': {
    async up(db: AnyDb) {
      // A team's e-mail domains (db/domains.ts). Several teams may claim a domain; only one can have
      // it verified (the partial unique index), so a claim alone blocks nobody. The token is the
      // challenge its admins publish in DNS, not a secret.
      await db.schema
        .createTable('team_domains')
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('verified_at', 'bigint')
        .addColumn('checked_at', 'bigint')
        .addColumn('last_problem', 'text')
        .addColumn('missing_since', 'bigint')
        .addPrimaryKeyConstraint('team_domains_pk', ['domain', 'team_id'])
        .execute();
      await db.schema.createIndex('team_domains_team').on('team_domains').columns(['team_id']).execute();
      await db.schema
        .createIndex('team_domains_verified')
        .on('team_domains')
        .column('domain')
        .unique()
        .where(sql.ref('state'), '=', 'verified')
        .execute();
    },
  },
  '016-team-connections': {
    async up(db: AnyDb) {
      // A team's enterprise connections to its company's identity provider (db/connections.ts): SAML
      // 2.0 now, OpenID Connect beside it. A connection signs anyone in only once a test passed and an
      // admin enabled it.
      await db.schema
        .createTable('team_connections')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('protocol', 'text', (c) => c.notNull())
        .addColumn('preset', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('idp_entity_id', 'text')
        .addColumn('sso_url', 'text')
        // JSON: the PEM certificates the provider signs with (two while one is being rotated).
        .addColumn('certificates', 'text', (c) => c.notNull())
        // JSON: which attribute holds the e-mail, the stable id, the names and the groups.
        .addColumn('mapping', 'text', (c) => c.notNull())
        .addColumn('idp_initiated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tested_at', 'bigint')
        // JSON: the last test sign-in's result, passed (with the claims received) or refused (why).
        .addColumn('last_test', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('team_connections_team')
        .on('team_connections')
        .columns(['team_id'])
        .execute();
      // The requests this site sent to a provider, until their answer comes (InResponseTo): in the
      // database, so the answer may reach any node, and spent once.
      await db.schema
        .createTable('saml_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('connection_id', 'text', (c) =>
          c.notNull().references('team_connections.id').onDelete('cascade'),
        )
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      // The assertions already used, until they expire: one presented again is a replay.
      await db.schema
        .createTable('saml_assertions')
        .addColumn('connection_id', 'text', (c) =>
          c.notNull().references('team_connections.id').onDelete('cascade'),
        )
        .addColumn('assertion_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('saml_assertions_pk', ['connection_id', 'assertion_id'])
        .execute();
    },
  },
  '017-sso-sign-in': {
    async up(db: AnyDb) {
      // Signing in through a connection (routes/sso.ts): a verified domain names the connection its
      // addresses sign in through, and may require it; a sign-in request is bound to the browser that
      // started it (the SHA-256 of its flow cookie) and knows where to go after.
      await db.schema
        .alterTable('team_domains')
        .addColumn('connection_id', 'text', (c) => c.references('team_connections.id').onDelete('set null'))
        .execute();
      await db.schema
        .alterTable('team_domains')
        .addColumn('require_sso', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('saml_requests').addColumn('browser_hash', 'text').execute();
      await db.schema.alterTable('saml_requests').addColumn('return_url', 'text').execute();
      // JSON: the permissions a member made by a first sign-in through the connection gets.
      await db.schema
        .alterTable('team_connections')
        .addColumn('default_permissions', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      // A membership the connection's provider gave (its groups claim): the next sign-in may take it
      // back; one an admin gave (null) it never touches.
      await db.schema.alterTable('group_members').addColumn('source', 'text').execute();
    },
  },
  '018-connection-metadata': {
    async up(db: AnyDb) {
      // Where a connection's provider details were read from (the provider's SAML metadata URL), so an
      // admin can read them again when the provider changes them; null when they were typed or pasted.
      await db.schema.alterTable('team_connections').addColumn('metadata_url', 'text').execute();
    },
  },
  '019-oidc-connections': {
    async up(db: AnyDb) {
      // OpenID Connect connections: the provider's issuer and this site's client there (the secret
      // sealed as the server's other secrets). Their requests wait in saml_requests like SAML's, the
      // id being the state, with the PKCE verifier and the nonce the answer is checked against.
      for (const column of ['issuer', 'client_id', 'client_secret'])
        await db.schema.alterTable('team_connections').addColumn(column, 'text').execute();
      for (const column of ['code_verifier', 'nonce'])
        await db.schema.alterTable('saml_requests').addColumn(column, 'text').execute();
    },
  },
  '020-setup-links': {
    async up(db: AnyDb) {
      // One-time links an owner mails to the company's IT contact (db/setup-links.ts): found by the
      // SHA-256 of their token, and bound on first opening to that browser (the SHA-256 of its cookie).
      await db.schema
        .createTable('setup_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('opened_at', 'bigint')
        .addColumn('browser_hash', 'text')
        .execute();
      await db.schema
        .createIndex('setup_links_team_time')
        .on('setup_links')
        .columns(['team_id', 'created_at'])
        .execute();
    },
  },
  '021-scim': {
    async up(db: AnyDb) {
      // A team's directories (SCIM 2.0 clients such as Okta or Entra ID, db/directories.ts): one bearer
      // token each, kept as its SHA-256 only. `sign_in` says how the members a directory makes sign in:
      // through the team's connection (`sso`) or with a password they set from a mail (`invitation`).
      await db.schema
        .createTable('directories')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('sign_in', 'text', (c) => c.notNull())
        .addColumn('created_by_name', 'text', (c) => c.notNull())
        .addColumn('created_by_email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('rotated_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('directories_team')
        .on('directories')
        .columns(['team_id', 'name'])
        .execute();
      // What SCIM knows of a member or a group beyond what the team keeps: the directory's own id for it
      // (externalId, unique per team) and the name's parts as the directory sent them. Beside the users
      // and groups rather than in them: those rows are read on every request and watched by every node.
      await db.schema
        .createTable('scim_users')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('external_id', 'text')
        .addColumn('given_name', 'text')
        .addColumn('family_name', 'text')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('scim_users_external')
        .on('scim_users')
        .columns(['team_id', 'external_id'])
        .unique()
        .execute();
      await db.schema
        .createTable('scim_groups')
        .addColumn('group_id', 'text', (c) => c.primaryKey().references('groups.id').onDelete('cascade'))
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('external_id', 'text')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('scim_groups_external')
        .on('scim_groups')
        .columns(['team_id', 'external_id'])
        .unique()
        .execute();
    },
  },
  '022-team-events': {
    async up(db: AnyDb) {
      // The audit trail becomes the team's event log: the members' security events join the admin
      // actions, with the address the request came from (when the team keeps addresses) and its
      // request id, so an event can be matched with the server's log.
      await db.schema.alterTable('audit_events').addColumn('address', 'text').execute();
      await db.schema.alterTable('audit_events').addColumn('request_id', 'text').execute();
    },
  },
  '023-event-streams': {
    async up(db: AnyDb) {
      // A team's streaming endpoints (db/event-streams.ts, docs/decisions/event-streaming.md): the
      // address, the signing secret sealed (and the previous one during a rotation), the state, and the
      // delivery status. `next_seq` numbers the endpoint's deliveries: recordAudit raises it in the
      // event's own transaction, holding the row until that commits, so the numbers commit in order.
      // `lease_*` is the claim of the node delivering to it.
      await db.schema
        .createTable('event_streams')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('next_seq', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('rotated_at', 'bigint')
        .addColumn('last_delivery_at', 'bigint')
        .addColumn('failing_since', 'bigint')
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_problem', 'text')
        .addColumn('last_status', 'integer')
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('disabled_at', 'bigint')
        .addColumn('lease_holder', 'text')
        .addColumn('lease_until', 'bigint')
        .execute();
      await db.schema.createIndex('event_streams_team').on('event_streams').columns(['team_id']).execute();
      // What each endpoint still has to take, in order: a row per event and endpoint, deleted once the
      // endpoint answered 2xx. The event itself is read from audit_events (never changed once written).
      await db.schema
        .createTable('stream_deliveries')
        .addColumn('stream_id', 'text', (c) => c.notNull().references('event_streams.id').onDelete('cascade'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('stream_deliveries_pk', ['stream_id', 'seq'])
        .execute();
    },
  },
  '026-email-codes': {
    async up(db: AnyDb) {
      // Sign-in with a code mailed to the member, a team's choice (off until its admins turn it on).
      await db.schema
        .alterTable('teams')
        .addColumn('email_code_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // One row per mail: the six-digit code's keyed hash (HMAC: a bare hash of a million possible codes
      // is no secret), the SHA-256 of the link's token, and the SHA-256 of the cookie of the browser that
      // asked (the link signs in only there). A new mail supersedes the live one; consumed by one UPDATE.
      await db.schema
        .createTable('email_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('link_hash', 'text', (c) => c.notNull().unique())
        .addColumn('browser_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('superseded_at', 'bigint')
        .execute();
      await db.schema.createIndex('email_codes_user').on('email_codes').column('user_id').execute();
    },
  },
  '027-scim-user-names': {
    async up(db: AnyDb) {
      // A directory's userName need not be an address (Entra ID sends what the tenant maps to it): kept
      // as sent beside the member, and its lower case unique per team, as SCIM compares userName.
      await db.schema.alterTable('scim_users').addColumn('user_name', 'text').execute();
      await db.schema.alterTable('scim_users').addColumn('user_name_key', 'text').execute();
      await db.schema
        .createIndex('scim_users_user_name')
        .on('scim_users')
        .columns(['team_id', 'user_name_key'])
        .unique()
        .execute();
    },
  },
  '028-challenges': {
    async up(db: AnyDb) {
      // Proof-of-work solutions already accepted: the SHA-256 of the challenge's signature, kept until
      // the challenge expires, so a solution is accepted once on every node (one conditional insert).
      await db.schema
        .createTable('used_challenges')
        .addColumn('signature_hash', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('used_challenges_expires')
        .on('used_challenges')
        .column('expires_at')
        .execute();
    },
  },
  '029-join-requests': {
    async up(db: AnyDb) {
      // Asking to join a team from an address at one of its verified domains (db/join-requests.ts): the
      // row waits `unverified` with the SHA-256 (keyed) of the code mailed to the address, then `pending`
      // for an admin, then `approved` or `declined`. One pending request per address and team.
      await db.schema
        .createTable('join_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text')
        .addColumn('code_expires_at', 'bigint')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('decided_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('decided_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('join_requests_pending')
        .on('join_requests')
        .columns(['team_id', 'email'])
        .unique()
        .where(sql.ref('state'), '=', 'pending')
        .execute();
      await db.schema
        .createIndex('join_requests_team_state')
        .on('join_requests')
        .columns(['team_id', 'state', 'created_at'])
        .execute();
      // A verified domain whose people may join without an admin's approval (seats still counted).
      await db.schema
        .alterTable('team_domains')
        .addColumn('auto_join', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '030-sign-ups': {
    async up(db: AnyDb) {
      // Starting a team (routes/sign-up.ts): one unfinished sign-up per address (asking again mails
      // again for the same row), the mailed code's keyed hash and the link token's SHA-256 (ten
      // minutes), then, once the address is verified, the SHA-256 of the ticket that finishes it. The
      // row goes when the team is made, or a day after it began.
      await db.schema
        .createTable('sign_ups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('team_name', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('link_hash', 'text', (c) => c.notNull().unique())
        .addColumn('code_expires_at', 'bigint', (c) => c.notNull())
        .addColumn('ticket_hash', 'text', (c) => c.unique())
        .addColumn('verified_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sign_ups_expiry').on('sign_ups').column('expires_at').execute();
      // A team a sign-up made shows its owner a first-steps checklist until they put it away.
      await db.schema
        .alterTable('teams')
        .addColumn('checklist', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '031-roster-version': {
    async up(db: AnyDb) {
      // A number that moves whenever the team's members or their order by address change, so a
      // reader may keep where each thousandth member stands until it moves (db/scim.ts). Kept by the
      // same triggers as the member count, plus one on a changed address.
      const postgres = onPostgres(db);
      await db.schema
        .alterTable('teams')
        .addColumn('roster_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      if (postgres) {
        await sql`create or replace function team_member_count() returns trigger language plpgsql as $$
          begin
            if tg_op = 'INSERT' then
              update teams set member_count = member_count + 1, roster_version = roster_version + 1
                where id = new.team_id;
            else
              update teams set member_count = member_count - 1, roster_version = roster_version + 1
                where id = old.team_id;
            end if;
            return null;
          end $$`.execute(db);
        await sql`create function team_roster_reordered() returns trigger language plpgsql as $$
          begin
            update teams set roster_version = roster_version + 1 where id in (old.team_id, new.team_id);
            return null;
          end $$`.execute(db);
        await sql`create trigger users_roster_reordered after update of email, team_id on users
          for each row when (old.email is distinct from new.email or old.team_id is distinct from new.team_id)
          execute function team_roster_reordered()`.execute(db);
      } else {
        await sql`drop trigger users_member_count_insert`.execute(db);
        await sql`drop trigger users_member_count_delete`.execute(db);
        await sql`create trigger users_member_count_insert after insert on users begin
          update teams set member_count = member_count + 1, roster_version = roster_version + 1
            where id = new.team_id; end`.execute(db);
        await sql`create trigger users_member_count_delete after delete on users begin
          update teams set member_count = member_count - 1, roster_version = roster_version + 1
            where id = old.team_id; end`.execute(db);
        await sql`create trigger users_roster_reordered after update of email, team_id on users
          when old.email is not new.email or old.team_id is not new.team_id begin
          update teams set roster_version = roster_version + 1 where id in (old.team_id, new.team_id); end`.execute(
          db,
        );
      }
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export const MIGRATION_NAMES = Object.keys(migrations);

/**
 * Bring the schema up to date (or up to the migration `upTo`, for the tests of a migration's data);
 * throws with the failing migration's error.
 */
export async function migrate(db: AnyDb, upTo?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await (upTo === undefined
    ? migrator.migrateToLatest()
    : migrator.migrateTo(upTo));
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The integrity check of SQLite (design §4): 'ok' when the file is sound. */
export async function integrityCheck(db: AnyDb): Promise<string> {
  const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
  return rows[0]?.integrity_check ?? 'unknown';
}
