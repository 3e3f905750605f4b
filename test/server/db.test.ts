import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase, type Db } from '../../demo/server/db/connect';
import { integrityCheck, migrate, MIGRATION_NAMES } from '../../demo/server/db/migrations';
import { keptUntilChange, preparedQuery } from '../../demo/server/db/prepared';
import {
  DEMO_DOMAINS,
  DEMO_GROUPS,
  DEMO_POLICIES,
  DEMO_PROVIDERS,
  DEMO_TEAMS,
  DEMO_USERS,
  DEMO_PASSWORD,
  DEMO_SAML_CONNECTION,
  seedDemo,
} from '../../demo/server/db/seed';
import { signingPair } from '../../demo/server/standin/saml';
import { OffsetClock } from '../../demo/server/lib/clock';
import { PasswordHasher, scryptParams } from '../../demo/server/lib/password';
import { TEST_HASH_COST } from '../support/test-server';
import { growTeam } from '../bench/seed';

const dir = mkdtempSync(join(tmpdir(), 'acct-db-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('database', () => {
  it('migrates a new file, then has nothing left to do', async () => {
    const db = await openDatabase(join(dir, 'fresh.db'));
    try {
      assert.deepEqual(await migrate(db.kysely), MIGRATION_NAMES);
      assert.deepEqual(await migrate(db.kysely), []);
      assert.equal(await integrityCheck(db.kysely), 'ok');
    } finally {
      await db.close();
    }
  });

  it('moves the team API clients into the team apps as machine apps, their secrets still good', async () => {
    const db = await openDatabase(join(dir, 'apps.db'));
    try {
      await migrate(db.kysely, '013-oidc-grant-owner');
      const { sql } = await import('kysely');
      await sql`insert into teams (id, name, display_name, created_at) values ('t1', 'acme', 'Acme', 0)`.execute(
        db.kysely,
      );
      await sql`insert into team_api_clients (client_id, team_id, secret_hash, name, scopes, created_at)
        values ('reporter', 't1', 'hash-of-secret', 'Reporter', 'team.storage', 5)`.execute(db.kysely);
      await sql`insert into oidc_models (model, id, payload) values ('Grant', 'g1', '{"clientId":"web-app"}')`.execute(
        db.kysely,
      );
      assert.deepEqual(await migrate(db.kysely, '014-team-apps'), ['014-team-apps']);
      const app = await db.kysely.selectFrom('team_apps').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual(
        [app.client_id, app.team_id, app.kind, app.secret_hash, app.scopes, app.disabled, app.name],
        ['reporter', 't1', 'machine', 'hash-of-secret', 'team.storage', 0, 'Reporter'],
      );
      const grant = await db.kysely.selectFrom('oidc_models').select('client_id').executeTakeFirstOrThrow();
      assert.equal(grant.client_id, 'web-app');
      await assert.rejects(sql`select * from team_api_clients`.execute(db.kysely), /no such table/);
    } finally {
      await db.close();
    }
  });

  it('uses WAL, foreign keys, a busy timeout and full sync', async () => {
    const db = await openDatabase(join(dir, 'pragmas.db'));
    try {
      const { sql } = await import('kysely');
      const read = async (name: string) => {
        const { rows } = await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(db.kysely);
        return Object.values(rows[0] ?? {})[0];
      };
      assert.equal(await read('journal_mode'), 'wal');
      assert.equal(await read('foreign_keys'), 1);
      assert.equal(await read('busy_timeout'), 5000);
      assert.equal(await read('synchronous'), 2);
      assert.equal(await read('locking_mode'), 'exclusive');
    } finally {
      await db.close();
    }
  });

  it('gathers table statistics at open: a filter among many members reads indexes, not the team', async () => {
    const file = join(dir, 'statistics.db');
    const made = await openDatabase(file);
    try {
      await migrate(made.kysely);
      await seedDemo(
        made.kysely,
        new PasswordHasher(4, 100, scryptParams(Number(TEST_HASH_COST))),
        new OffsetClock(),
      );
    } finally {
      await made.close();
    }
    growTeam(file, 5000);
    const db = await openDatabase(file);
    try {
      const { sql } = await import('kysely');
      const stats = await sql<{ tbl: string }>`select tbl from sqlite_stat1`.execute(db.kysely);
      assert.ok(
        stats.rows.some((row) => row.tbl === 'users'),
        'statistics of users',
      );
      // The query a directory's `userName eq` filter makes: by the directory's name or the address.
      const team = await db.kysely
        .selectFrom('teams')
        .select('id')
        .where('name', '=', 'acme')
        .executeTakeFirstOrThrow();
      const value = 'user2500@acme.test';
      const plan = await sql<{ detail: string }>`explain query plan
        select users.id from users where users.team_id = ${team.id} and (
          users.id in (select user_id from scim_users where team_id = ${team.id} and user_name_key = ${value})
          or users.email = ${value})
        order by users.email, users.id limit 100`.execute(db.kysely);
      const steps = plan.rows.map((row) => row.detail);
      assert.ok(
        !steps.some((step) => /USING (COVERING )?INDEX \S+ \(team_id=\?\)$/.test(step)),
        steps.join('\n'),
      );
    } finally {
      await db.close();
    }
  });

  it('belongs to one process: a second opener of the file is refused with a clear message', async () => {
    const file = join(dir, 'owned.db');
    const first = await openDatabase(file);
    try {
      await migrate(first.kysely);
      await assert.rejects(openDatabase(file), /owned\.db is in use by another process.*PostgreSQL/);
    } finally {
      await first.close();
    }
    // Once the owner has closed it, the file opens again.
    const second = await openDatabase(file);
    await second.close();
  });

  it('seeds the demo data once: a second run adds nothing and keeps changes', async () => {
    const db = await openDatabase(join(dir, 'seed.db'));
    // The seed hashes with the server's hasher, at whatever cost it has (hashing has its own tests).
    const hasher = new PasswordHasher(4, 100, scryptParams(Number(TEST_HASH_COST)));
    const clock = new OffsetClock();
    try {
      await migrate(db.kysely);
      const first = await seedDemo(db.kysely, hasher, clock);
      assert.equal(
        first,
        // + the demo team API credential
        DEMO_TEAMS.length +
          DEMO_USERS.length +
          DEMO_POLICIES.length +
          DEMO_PROVIDERS.length +
          DEMO_DOMAINS.length +
          DEMO_GROUPS.length +
          1,
      );
      await db.kysely
        .updateTable('users')
        .set({ name: 'Ada King' })
        .where('email', '=', 'ada@acme.test')
        .execute();
      assert.equal(await seedDemo(db.kysely, hasher, clock), 0);
      const ada = await db.kysely
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'ada@acme.test')
        .executeTakeFirstOrThrow();
      assert.equal(ada.name, 'Ada King');
      assert.equal(await hasher.verify(DEMO_PASSWORD, ada.password_hash), true);

      const count = async (table: 'teams' | 'users' | 'policies' | 'external_accounts') =>
        Number(
          (
            await db.kysely
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      assert.equal(await count('teams'), 5);
      assert.equal(await count('users'), 6);
      assert.equal(await count('policies'), DEMO_POLICIES.length);
      assert.equal(await count('external_accounts'), 3);

      const bob = await db.kysely
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'bob@acme.test')
        .executeTakeFirstOrThrow();
      assert.equal(bob.password_hash, null);
      const locked = await db.kysely
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'locked@acme.test')
        .executeTakeFirstOrThrow();
      assert.equal(locked.locked, 1);
      const initech = await db.kysely
        .selectFrom('teams')
        .selectAll()
        .where('name', '=', 'initech')
        .executeTakeFirstOrThrow();
      assert.equal(initech.disabled, 1);
    } finally {
      await db.close();
    }
  });

  it('points initrode’s SAML connection at the stand-in as it runs at each start (demo mode)', async () => {
    const db = await openDatabase(join(dir, 'saml.db'));
    const hasher = new PasswordHasher(4, 100, scryptParams(Number(TEST_HASH_COST)));
    const clock = new OffsetClock();
    const provider = (port: number) => ({
      entityId: `http://localhost:${port}/metadata`,
      ssoUrl: `http://localhost:${port}/sso`,
      cert: signingPair(1).cert,
    });
    const connection = () =>
      db.kysely
        .selectFrom('team_connections')
        .selectAll()
        .where('id', '=', DEMO_SAML_CONNECTION.id)
        .executeTakeFirst();
    const route = () =>
      db.kysely
        .selectFrom('team_domains')
        .select(['connection_id', 'require_sso'])
        .where('domain', '=', DEMO_SAML_CONNECTION.domain)
        .executeTakeFirstOrThrow();
    try {
      await migrate(db.kysely);
      // Without the stand-in (a test template), no connection and the domain signs in by password.
      await seedDemo(db.kysely, hasher, clock);
      assert.equal(await connection(), undefined);
      assert.deepEqual(await route(), { connection_id: null, require_sso: 0 });

      const first = provider(8086);
      assert.equal(await seedDemo(db.kysely, hasher, clock, first), 1, 'the connection, once');
      const made = (await connection())!;
      assert.deepEqual(
        [made.name, made.enabled, made.tested_at !== null, made.sso_url, JSON.parse(made.certificates)],
        [DEMO_SAML_CONNECTION.name, 1, true, first.ssoUrl, [first.cert]],
      );
      assert.deepEqual(await route(), { connection_id: DEMO_SAML_CONNECTION.id, require_sso: 0 });

      const next = provider(9086);
      assert.equal(await seedDemo(db.kysely, hasher, clock, next), 0);
      const moved = (await connection())!;
      assert.deepEqual(
        [moved.idp_entity_id, moved.sso_url, JSON.parse(moved.certificates), moved.enabled],
        [next.entityId, next.ssoUrl, [next.cert], 1],
      );
    } finally {
      await db.close();
    }
  });
});

describe('prepared queries', () => {
  const NO_PROVIDERS = {
    disabled: 0,
    local_enabled: 1,
    google_enabled: 0,
    azure_enabled: 0,
    auth0_enabled: 0,
    auth0_display_name: null,
  };

  it("builds once and runs with each call's values, in the order the SQL needs them", async () => {
    const db = await openDatabase(join(dir, 'prepared.db'));
    try {
      await migrate(db.kysely);
      await db.kysely
        .insertInto('teams')
        .values([
          { id: 't1', name: 'one', display_name: 'One', created_at: 1, ...NO_PROVIDERS },
          { id: 't2', name: 'two', display_name: 'Two', created_at: 2, ...NO_PROVIDERS },
        ])
        .execute();
      let builds = 0;
      // Parameters named in one order and used in another: the values still land where they belong.
      const lookup = preparedQuery(db.kysely, ['after', 'name'], (p) => {
        builds += 1;
        return db.kysely
          .selectFrom('teams')
          .select('id')
          .where('name', '=', p.name)
          .where('created_at', '>', p.after);
      });
      assert.deepEqual(await lookup({ name: 'one', after: 0 }), { id: 't1' });
      assert.deepEqual(await lookup({ name: 'two', after: 0 }), { id: 't2' });
      assert.equal(await lookup({ name: 'two', after: 2 }), undefined);
      assert.equal(builds, 1);
    } finally {
      await db.close();
    }
  });

  type TeamLookup = (key: { name: string }) => Promise<{ display_name: string } | undefined>;

  /** A migrated database (file `name`) with one team, 'one', and a prepared lookup of its display name. */
  async function withTeamOne(name: string, body: (db: Db, lookup: TeamLookup) => Promise<void>) {
    const db = await openDatabase(join(dir, name));
    try {
      await migrate(db.kysely);
      await db.kysely
        .insertInto('teams')
        .values({ id: 't1', name: 'one', display_name: 'One', created_at: 1, ...NO_PROVIDERS })
        .execute();
      const lookup = preparedQuery(db.kysely, ['name'], (p) =>
        db.kysely.selectFrom('teams').select('display_name').where('name', '=', p.name),
      );
      await body(db, lookup);
    } finally {
      await db.close();
    }
  }

  /** A transaction that renames team 'one' to `to`, then stays open until `commit()` or `rollBack()`. */
  async function openRename(db: Db, to: string) {
    let end!: (commit: boolean) => void;
    const held = new Promise<boolean>((resolve) => (end = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const rolledBack = new Error('rolled back by the test');
    const done = db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('teams').set({ display_name: to }).where('id', '=', 't1').execute();
      entered();
      if (!(await held)) throw rolledBack;
    });
    await inside;
    return {
      commit: () => {
        end(true);
        return done;
      },
      rollBack: () => {
        end(false);
        return done.catch((error: unknown) => {
          if (error !== rolledBack) throw error;
        });
      },
    };
  }

  it('reads only what is committed: while a transaction is open, a lookup waits for it', async () => {
    await withTeamOne('prepared-transaction.db', async (db, lookup) => {
      assert.deepEqual(await lookup({ name: 'one' }), { display_name: 'One' });
      // The transaction's write is not committed: the lookup must neither see it nor answer before the
      // end. The transaction rolls back, so its answer tells when it read: on the one connection, a
      // read made while the transaction was open would find 'Renamed'; one made after it, 'One'.
      const rename = await openRename(db, 'Renamed');
      const during = lookup({ name: 'one' });
      await rename.rollBack();
      assert.deepEqual(await during, { display_name: 'One' }, 'the lookup waited for the transaction');
      // And after a commit, the committed value.
      const again = await openRename(db, 'Renamed');
      const afterCommit = lookup({ name: 'one' });
      await again.commit();
      assert.deepEqual(await afterCommit, { display_name: 'Renamed' });
    });
  });

  it('keeps an answer per key until any row of any table changes', async () => {
    await withTeamOne('kept.db', async (db, lookup) => {
      let reads = 0;
      const kept = keptUntilChange(db.kysely, (key: { name: string }) => {
        reads += 1;
        return lookup(key);
      });
      const one = { name: 'one' };
      const missing = { name: 'none' };
      assert.deepEqual(await kept(one), { display_name: 'One' });
      assert.deepEqual(await kept(one), { display_name: 'One' });
      assert.equal(reads, 1, 'nothing changed: the second call answers from memory');
      // A miss is not kept.
      assert.equal(await kept(missing), undefined);
      assert.equal(await kept(missing), undefined);
      assert.equal(reads, 3);
      // A write to another table, and a write that sets a value it already had, still mean: read again.
      await db.kysely
        .insertInto('policies')
        .values({ name: 'P', description: 'p', internal: 0, permissions: '', sort_order: 0 })
        .execute();
      assert.deepEqual(await kept(one), { display_name: 'One' });
      assert.equal(reads, 4);
      await db.kysely.updateTable('teams').set({ display_name: 'One' }).where('id', '=', 't1').execute();
      assert.deepEqual(await kept(one), { display_name: 'One' });
      assert.equal(reads, 5);
      await db.kysely.updateTable('teams').set({ display_name: 'Renamed' }).where('id', '=', 't1').execute();
      assert.deepEqual(await kept(one), { display_name: 'Renamed' });
      assert.deepEqual(await kept(one), { display_name: 'Renamed' });
      assert.equal(reads, 6);
      // A write that matches no row changes nothing: the answers stay kept.
      await db.kysely.deleteFrom('teams').where('id', '=', 'no such team').execute();
      assert.deepEqual(await kept(one), { display_name: 'Renamed' });
      assert.equal(reads, 6);
    });
  });

  it('keeps nothing read while a transaction is open, nor an answer a write overtook', async () => {
    await withTeamOne('kept-transaction.db', async (db, lookup) => {
      let reads = 0;
      let overtake: (() => Promise<unknown>) | undefined;
      const kept = keptUntilChange(db.kysely, async (key: { name: string }) => {
        reads += 1;
        const row = await lookup(key);
        // A write that lands after the row was read and before the answer is kept.
        await overtake?.();
        return row;
      });

      // While a transaction is open, a call reads (and waits for it), and what it reads is not kept.
      const one = { name: 'one' };
      assert.deepEqual(await kept(one), { display_name: 'One' });
      const rename = await openRename(db, 'Renamed');
      const during = kept(one);
      await rename.commit();
      assert.deepEqual(await during, { display_name: 'Renamed' });
      assert.equal(reads, 2, 'the call made while the transaction was open read');
      assert.deepEqual(await kept(one), { display_name: 'Renamed' });
      assert.equal(reads, 3, 'what was read then was not kept');

      // A write between the read and the keeping: the next call does not get the answer read before it.
      const two = { name: 'one' };
      overtake = () =>
        db.kysely.updateTable('teams').set({ display_name: 'Third' }).where('id', '=', 't1').execute();
      assert.deepEqual(await kept(two), { display_name: 'Renamed' });
      overtake = undefined;
      assert.deepEqual(await kept(two), { display_name: 'Third' });
      assert.deepEqual(await kept(two), { display_name: 'Third' });
      assert.equal(reads, 5);
    });
  });

  it('refuses a query with a value that is not a named parameter, or a parameter it does not use', async () => {
    const db = await openDatabase(':memory:');
    try {
      assert.throws(
        () =>
          preparedQuery(db.kysely, ['name'], (p) =>
            db.kysely.selectFrom('teams').select('id').where('name', '=', p.name).where('created_at', '>', 5),
          ),
        /every value must be a named parameter/,
      );
      assert.throws(
        () =>
          preparedQuery(db.kysely, ['name', 'id'], (p) =>
            db.kysely.selectFrom('teams').select('id').where('name', '=', p.name),
          ),
        /parameter id is not used/,
      );
    } finally {
      await db.close();
    }
  });
});

describe('password hashing', () => {
  it('uses scrypt N=2^17, r=8, p=1, stores the parameters, and verifies', async () => {
    const hasher = new PasswordHasher(2, 10);
    const hash = await hasher.hash('correct horse battery staple');
    assert.match(hash, /^\$scrypt\$ln=17,r=8,p=1\$/);
    assert.equal(await hasher.verify('correct horse battery staple', hash), true);
    assert.equal(await hasher.verify('correct horse battery stapl', hash), false);
    assert.equal(await hasher.verify('x', 'not a hash'), false);
    assert.equal(await hasher.verify('x', null), false);
    assert.equal(hasher.needsRehash(hash), false);
    assert.equal(hasher.needsRehash('$scrypt$ln=14,r=8,p=1$AAAA$BBBB'), true);
  });

  it('refuses work beyond its queue instead of stalling', async () => {
    const hasher = new PasswordHasher(1, 1);
    const results = await Promise.allSettled([hasher.hash('a'), hasher.hash('b'), hasher.hash('c')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected'],
    );
    assert.equal(hasher.load, 0);
  });
});
