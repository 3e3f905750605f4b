/**
 * Two app nodes on one PostgreSQL database (TEST_POSTGRES=1; on SQLite, one process owns its file, so
 * these are skipped): what one node writes reaches the other's caches, keys rotate on all nodes at once,
 * and no table is left out of the change notifications. The real three-node cluster behind a load
 * balancer is test/cluster/.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../demo/server/config';
import { openDatabase, type Db } from '../../demo/server/db/connect';
import { migrate, MIGRATION_NAMES, NOTIFYING_TABLES } from '../../demo/server/db/migrations';
import { seedDemo } from '../../demo/server/db/seed';
import { OffsetClock } from '../../demo/server/lib/clock';
import { openKeyRing } from '../../demo/server/lib/keys';
import { PasswordHasher, scryptParams } from '../../demo/server/lib/password';
import { QUIET_TABLES } from '../../demo/server/db/quiet-tables';
import {
  createTestApp,
  TEST_HASH_COST,
  TEST_KEY_ENCRYPTION_KEY,
  tokenFor,
  type TestApp,
} from '../support/test-server';

const postgres = process.env.TEST_POSTGRES === '1';
const skip = postgres ? false : 'PostgreSQL only (TEST_POSTGRES=1): SQLite has one process per file';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const userinfo = async (t: TestApp, token: string) =>
  (await t.app.inject({ method: 'GET', url: '/connect/userinfo', headers: bearer(token) })).statusCode;

/** Polls `check` every 2 ms until it holds; how long that took, or fails after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  for (let tries = 0; tries < limitMs; tries++) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > limitMs) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`not within ${limitMs} ms`);
}

describe('two nodes on one PostgreSQL database', { skip }, () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    a = await createTestApp();
    b = await createTestApp({ DATABASE_URL: a.config.databaseUrl });
    await within(5000, async () => !!a.db.changes?.isListening && !!b.db.changes?.isListening);
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('has every table either notify of its writes or listed as needing none', async () => {
    const { rows: tables } = await sql<{ name: string }>`select table_name as name
      from information_schema.tables where table_schema = 'public'`.execute(a.db.kysely);
    const { rows: triggers } = await sql<{ name: string }>`select distinct c.relname as name
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where t.tgname like '%notify_change' and not t.tgisinternal`.execute(a.db.kysely);
    const notifying = new Set(triggers.map((row) => row.name));
    for (const table of Object.keys(NOTIFYING_TABLES)) assert.ok(notifying.has(table), `${table} notifies`);
    for (const { name } of tables) {
      const quiet = name in QUIET_TABLES;
      assert.ok(
        notifying.has(name) !== quiet,
        `${name}: ${quiet ? 'notifies but is listed quiet' : 'neither notifies nor is listed in QUIET_TABLES'}`,
      );
    }
  });

  it('stops a token on the other node once it is signed out on one, within a notification', async () => {
    const session = await tokenFor(a.app, 'ada@acme.test', 'acme');
    // Both nodes answer, twice: the second answer comes from each node's cache.
    for (const node of [a, b, a, b]) assert.equal(await userinfo(node, session.accessToken), 200);
    const logout = await a.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: {
        cookie: session.cookie,
        'x-xsrf-token': session.xsrf,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: '',
    });
    assert.ok(logout.statusCode < 400, `logout answered ${logout.statusCode}`);
    // The node that wrote knows at once; the other as soon as the commit's notification reaches it.
    assert.equal(await userinfo(a, session.accessToken), 401);
    await within(1000, async () => (await userinfo(b, session.accessToken)) === 401);
  });

  it('keeps nothing while its change feed is down, and drops what it kept once it is back', async () => {
    const session = await tokenFor(a.app, 'bob@acme.test', 'acme');
    for (let i = 0; i < 2; i++) assert.equal(await userinfo(b, session.accessToken), 200);
    const feed = b.db.changes!;
    const pid = feed.backendPid;
    assert.ok(pid);
    // Cut b's listening connection, then end the session while b cannot hear of it.
    await sql`select pg_terminate_backend(${pid})`.execute(a.db.kysely);
    await within(2000, async () => !feed.isListening);
    assert.equal(feed.counter(), undefined, 'no count while not listening');
    await a.db.kysely
      .updateTable('sessions')
      .set({ revoked_at: a.clock.now() })
      .where('public_id', '=', session.publicId)
      .execute();
    assert.equal(await userinfo(b, session.accessToken), 401, 'read again, not answered from memory');
    await within(5000, async () => feed.isListening);
  });

  it('rotates the keys on every node: the new key signs everywhere, tokens of the old one still work', async () => {
    const old = await tokenFor(b.app, 'carol@globex.test', 'globex');
    const oldKid = b.app.services.keys.signingKey().kid;
    const kid = await a.app.services.keys.rotate(a.clock.now());
    assert.notEqual(kid, oldKid);
    assert.equal(a.app.services.keys.signingKey().kid, kid);
    await within(1000, async () => b.app.services.keys.signingKey().kid === kid);
    const fresh = await tokenFor(b.app, 'carol@globex.test', 'globex');
    for (const node of [a, b]) {
      assert.equal(await userinfo(node, old.accessToken), 200, 'a token of the previous key');
      assert.equal(await userinfo(node, fresh.accessToken), 200, 'a token of the new key');
    }
    const jwks = (await b.app.inject({ method: 'GET', url: '/.well-known/jwks' })).json() as {
      keys: Array<{ kid: string }>;
    };
    assert.deepEqual(
      jwks.keys.map((key) => key.kid),
      [kid, oldKid],
    );
  });
});

/** Drops a database whose connections were just closed and may still be going (55006), up to 5 s. */
async function dropDatabase(admin: Db, name: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      const force = sql.raw(tries === 100 ? ' with (force)' : '');
      await sql`drop database if exists ${sql.id(name)}${force}`.execute(admin.kysely);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || tries === 100) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('three nodes starting at once on an empty PostgreSQL database', { skip }, () => {
  it('migrate, make the first key and seed once, one after the other, under the start lock', async () => {
    const admin = new URL(process.env.DATABASE_URL!);
    const name = `start_${Date.now()}_${process.pid}`;
    const at = (database: string) => Object.assign(new URL(admin), { pathname: `/${database}` }).href;
    const creator = await openDatabase(at('postgres'));
    await sql`create database ${sql.id(name)}`.execute(creator.kysely);
    const nodes = await Promise.all([1, 2, 3].map(() => openDatabase(at(name))));
    try {
      const config = loadConfig({
        DATABASE_URL: at(name),
        KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
        DATA_DIR: join(tmpdir(), name),
      });
      // What startServer does at start, on three nodes at once (the seed hashes: a wide window).
      const kids = await Promise.all(
        nodes.map((db) =>
          db.exclusive(async () => {
            await migrate(db.kysely);
            const keys = await openKeyRing(db, config, new OffsetClock());
            await seedDemo(
              db.kysely,
              new PasswordHasher(2, 100, scryptParams(Number(TEST_HASH_COST))),
              new OffsetClock(),
            );
            return keys.signingKey().kid;
          }),
        ),
      );
      assert.equal(new Set(kids).size, 1, 'one signing key');
      const db = nodes[0]!.kysely;
      const migrations = await db
        .selectFrom('kysely_migration' as never)
        .select(sql<string>`name`.as('name'))
        .execute();
      assert.deepEqual(
        migrations.map((m) => (m as { name: string }).name).sort(),
        [...MIGRATION_NAMES].sort(),
      );
      const users = await db.selectFrom('users').select(['team_id', 'email']).execute();
      assert.equal(new Set(users.map((u) => `${u.team_id} ${u.email}`)).size, users.length);
      assert.ok(users.length > 0);
    } finally {
      await Promise.all(nodes.map((db) => db.close()));
      await dropDatabase(creator, name);
      await creator.close();
    }
  });
});
