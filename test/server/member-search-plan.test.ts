/**
 * The member list and search must stay fast at 100,000 members (design §5: admin lists p99 ≤ 50 ms):
 * every query they run is an index range — checked here from the databases' own plans (SQLite's
 * EXPLAIN QUERY PLAN; PostgreSQL's EXPLAIN, under `npm run test:postgres`) on a team of 20,000. The bench
 * (`npm run bench -- members`) measures the time at 100,000.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import { sqliteHandleOf } from '../../demo/server/db/connect';
import { decodeCursor, membersRepository } from '../../demo/server/db/members';
import { scimRepository, type UserCondition } from '../../demo/server/db/scim';
import { memberTerms, sortKey } from '../../demo/server/db/member-terms';
import type { Database } from '../../demo/server/db/schema';
import { createTestApp, type TestApp } from '../support/test-server';

const MEMBERS = 20_000;
const FIRST = ['Ada', 'Bea', 'Cyd', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jon'];

let t: TestApp;
let teamId: string;
/** A Kysely on the test app's database that records every statement it runs. */
let recording: Kysely<Database>;
let statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];
let explain: (sql: string, parameters: readonly unknown[]) => Promise<string[]>;

/** A member's row as the bulk inserts write it: no password, no language. */
const userRow = (u: { id: string; email: string; name: string }, now: number) => ({
  ...u,
  team_id: teamId,
  name_key: sortKey(u.name),
  password_hash: null,
  password_changed_at: null,
  locked: 0,
  language: null,
  created_at: now,
});

before(async () => {
  t = await createTestApp();
  const db = t.db.kysely;
  teamId = (await db.selectFrom('teams').select('id').where('name', '=', 'acme').executeTakeFirstOrThrow())
    .id;
  const now = t.clock.now();
  for (let start = 0; start < MEMBERS; start += 500) {
    const users = Array.from({ length: 500 }, (_, i) => {
      const n = start + i;
      const name = `${FIRST[n % FIRST.length]} Member ${n}`;
      return { id: randomUUID(), name, email: `member${n}@bulk.test` };
    });
    await db
      .insertInto('users')
      .values(users.map((u) => userRow(u, now)))
      .execute();
    await db
      .insertInto('member_terms')
      .values(
        users.flatMap((u) =>
          memberTerms(u.name, u.email).map(({ term, shadow }) => ({
            team_id: teamId,
            term,
            user_id: u.id,
            shadow,
          })),
        ),
      )
      .execute();
    await db
      .insertInto('user_permissions')
      .values(users.map((u) => ({ user_id: u.id, permission: 'SPOKE' })))
      .execute();
    // A third sign in with Google; each is in one of the groups: the tables a page reads grow too.
    await db
      .insertInto('external_accounts')
      .values(
        users
          .filter((_, i) => i % 3 === 0)
          .map((u) => ({
            id: randomUUID(),
            user_id: u.id,
            team_id: teamId,
            provider: 'Google',
            subject: `google-${u.id}`,
            user_name: u.email,
            created_at: now,
          })),
      )
      .execute();
    const group = randomUUID();
    await db
      .insertInto('groups')
      .values({
        id: group,
        team_id: teamId,
        name: `Group ${start}`,
        name_key: `group ${start}`,
        created_at: now,
      })
      .execute();
    await db
      .insertInto('group_members')
      .values(users.map((u) => ({ group_id: group, user_id: u.id })))
      .execute();
  }
  const log = (event: LogEvent) => {
    if (event.level === 'query')
      statements.push({ sql: event.query.sql, parameters: event.query.parameters });
  };
  const sqlite = sqliteHandleOf(db);
  if (sqlite) {
    recording = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log });
    explain = async (sql, parameters) =>
      (sqlite.prepare(`explain query plan ${sql}`).all(...parameters) as Array<{ detail: string }>).map(
        (row) => row.detail,
      );
  } else {
    const pg = await import('pg');
    const pool = new pg.default.Pool({ connectionString: t.config.databaseUrl, max: 1 });
    recording = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    await pool.query('analyze');
    explain = async (sql, parameters) =>
      (await pool.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, [...parameters])).rows.map(
        (row) => row['QUERY PLAN'],
      );
  }
});
after(async () => {
  // On SQLite the recording instance shares the app's connection: only PostgreSQL's pool is its own.
  if (!sqliteHandleOf(t.db.kysely)) await recording.destroy();
  await t.close();
});

/** The plans of every statement a list call runs, with the SQL. */
async function plansOf(query: string, cursor: string | null = null) {
  statements = [];
  const page = await membersRepository(recording, t.db.dialect).list(
    teamId,
    query,
    cursor ? decodeCursor(cursor) : null,
    25,
  );
  const plans = [];
  for (const statement of statements)
    plans.push({ sql: statement.sql, plan: await explain(statement.sql, statement.parameters) });
  return { page, plans };
}

/** Whole-table reads and sorts that a large team would feel. */
const FULL_SCAN =
  /^(SCAN (users|member_terms|t|s|user_permissions|external_accounts|group_members)\b)|Seq Scan on (users|member_terms|user_permissions|external_accounts|group_members)/;
const SORT = /USE TEMP B-TREE FOR ORDER BY|^\s*(->\s*)?(Incremental )?Sort\b/;

function assertRanges(plans: Array<{ sql: string; plan: string[] }>) {
  assert.ok(plans.length >= 3, `statements recorded: ${plans.length}`);
  for (const { sql, plan } of plans) {
    const text = plan.join('\n');
    // A scan under a LIMIT stops at its limit: PostgreSQL counts a common prefix's first 101 matches
    // that way, reading about as many rows as the index would.
    const limited = plan.findIndex((line) => /\bLimit\b/.test(line));
    const scanned = plan.findIndex((line) => FULL_SCAN.test(line.trim()));
    const scanUnderLimit = limited !== -1 && scanned > limited && !SORT.test(text);
    if (!scanUnderLimit) assert.doesNotMatch(text, FULL_SCAN, `a full scan in\n${sql}\n${text}`);
    if (/order by/i.test(sql)) assert.doesNotMatch(text, SORT, `a sort in\n${sql}\n${text}`);
  }
}

describe(`member list and search at ${MEMBERS.toLocaleString('en')} members: index ranges only`, () => {
  it('the list by name, first page and a later one', async () => {
    const first = await plansOf('');
    assert.equal(first.page.members.length, 25);
    assertRanges(first.plans);
    const later = await plansOf(
      '',
      Buffer.from(JSON.stringify(['name', 'gus member 1', ''])).toString('base64url'),
    );
    assert.equal(later.page.members[0]!.name.startsWith('Gus Member 1'), true);
    assertRanges(later.plans);
  });

  it('a search by a name prefix (most members match), first page and a later one', async () => {
    const first = await plansOf('member');
    assert.equal(first.page.totalExact, false);
    assert.equal(first.page.total, 100);
    assertRanges(first.plans);
    const later = await plansOf(
      'member',
      Buffer.from(JSON.stringify(['term', 'member 15000', ''])).toString('base64url'),
    );
    assert.equal(later.page.members.length, 25);
    assertRanges(later.plans);
  });

  it('a search by an e-mail prefix and by the start of a later word', async () => {
    const email = await plansOf('member1234@');
    assert.deepEqual(
      email.page.members.map((m) => m.email),
      ['member1234@bulk.test'],
    );
    assertRanges(email.plans);
    const word = await plansOf('1999');
    assert.ok(word.page.members.some((m) => m.name.endsWith(' 1999')));
    assertRanges(word.plans);
  });
});

describe(`a directory's SCIM filters at ${MEMBERS.toLocaleString('en')} members: index lookups only`, () => {
  /** The team's whole index walked for one member (SQLite): a range on the team alone. */
  const TEAM_RANGE = /USING (COVERING )?INDEX \S+ \(team_id=\?\)$/;

  it('finds one member by userName, by e-mail or by both, without walking the team', async () => {
    const filters: UserCondition[][] = [
      [{ attribute: 'userName', value: 'member4321@bulk.test' }],
      [{ attribute: 'email', value: 'member4321@bulk.test' }],
      [
        { attribute: 'userName', value: 'member4321@bulk.test' },
        { attribute: 'email', value: 'member4321@bulk.test' },
      ],
    ];
    for (const conditions of filters) {
      statements = [];
      const page = await scimRepository(recording, t.db.dialect).listUsers(teamId, conditions, 0, 100);
      assert.deepEqual(
        page.rows.map((row) => row.email),
        ['member4321@bulk.test'],
      );
      for (const { sql, parameters } of statements) {
        const text = (await explain(sql, parameters)).join('\n');
        assert.doesNotMatch(text, FULL_SCAN, `a full scan in\n${sql}\n${text}`);
        if (sqliteHandleOf(t.db.kysely))
          assert.doesNotMatch(
            text,
            new RegExp(TEAM_RANGE.source, 'm'),
            `the team walked in\n${sql}\n${text}`,
          );
      }
    }
  });
});

describe(`a directory's list far into ${MEMBERS.toLocaleString('en')} members`, () => {
  /** The page at `offset` as a plain offset reads it: what every other answer must equal. */
  const truth = async (offset: number) =>
    (
      await t.db.kysely
        .selectFrom('users')
        .select('email')
        .where('team_id', '=', teamId)
        .orderBy('email')
        .limit(100)
        .offset(offset)
        .execute()
    ).map((row) => row.email);

  it('starts from a kept address, skips fewer than a thousand, and follows every change', async () => {
    const scim = scimRepository(recording, t.db.dialect);
    const page = async (offset: number) => {
      statements = [];
      const { rows, total } = await scim.listUsers(teamId, [], offset, 100);
      return { emails: rows.map((row) => row.email), total, statements };
    };
    const offsets = [0, 999, 1000, 10_050, 15_999, MEMBERS - 50];
    const check = async (label: string) => {
      const count = (
        await t.db.kysely
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('team_id', '=', teamId)
          .executeTakeFirstOrThrow()
      ).n;
      // The first read after a change pages by offset; the next reads the kept addresses again.
      for (let round = 0; round < 3; round++)
        for (const offset of offsets) {
          const { emails, total } = await page(offset);
          assert.deepEqual(emails, await truth(offset), `${label}, offset ${offset}, round ${round}`);
          assert.equal(total, Number(count), `${label}: total`);
        }
      const far = await page(10_050);
      const offsetsRun = far.statements.flatMap(({ sql, parameters }) =>
        /\boffset\b/i.test(sql) ? [Number(parameters.at(-1))] : [],
      );
      assert.deepEqual(offsetsRun, [50], `${label}: ${JSON.stringify(far.statements)}`);
      assert.deepEqual((await page(MEMBERS + 5000)).emails, [], `${label}: past the end`);
    };

    await check('as grown');
    // A member whose address sorts first moves every later one a place on; one leaving moves them back.
    const now = t.clock.now();
    const early = randomUUID();
    await t.db.kysely
      .insertInto('users')
      .values(userRow({ id: early, email: 'aaa-first@bulk.test', name: 'First' }, now))
      .execute();
    await check('after a member came first');
    await t.db.kysely
      .updateTable('users')
      .set({ email: 'zzz-last@bulk.test' })
      .where('id', '=', early)
      .execute();
    await check('after their address moved them last');
    await t.db.kysely.deleteFrom('users').where('email', '=', 'member10@bulk.test').execute();
    await check('after a member left');
    await t.db.kysely.deleteFrom('users').where('id', '=', early).execute();
  });
});
