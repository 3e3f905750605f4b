import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { recordAudit } from '../../demo/server/db/audit';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import type { TeamEvent } from '../../src/contract/team-events';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, exchangeSession, type TestApp } from '../support/test-server';
import { bearer, codeFor, cookiesFrom, login, makeUser, withCookies } from '../support/two-step';

let t: TestApp;
let who: Callers;
before(async () => {
  t = await createTestApp({ LOGIN_ADDRESS_LIMIT: '1000', SESSION_ADDRESSES: 'true' });
  who = await callers(t);
});
after(() => t.close());
beforeEach(async () => {
  await t.db.kysely.deleteFrom('login_failures').execute();
  await t.db.kysely.deleteFrom('rate_limits').execute();
});

const teamId = async (name: string) =>
  (await t.db.kysely.selectFrom('teams').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

/** Every event of a team's log about (or by) this address, oldest first. */
const eventsOf = (email: string) =>
  t.db.kysely
    .selectFrom('audit_events')
    .selectAll()
    .where((eb) => eb.or([eb('target', '=', email), eb('actor_email', '=', email)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** A browser's session and token after a password sign-in. */
async function signedIn(email: string, password = DEMO_PASSWORD) {
  const response = await login(t, email, password);
  assert.equal(response.statusCode, 200, response.body);
  const jar = cookiesFrom(response);
  const check = await withCookies(t, jar, '/account/check');
  const token = await exchangeSession(t.app, jar, check.json().session as string);
  assert.equal(token.statusCode, 200, token.body);
  return { jar, accessToken: token.json().access_token as string };
}

let serial = 0;
const fresh = async (prefix: string) => {
  const email = `${prefix}${++serial}@acme.test`;
  const id = await makeUser(t, email);
  return { email, id };
};

describe("a member's security events in their team's log", () => {
  it('records a full journey, each event as the member, with the request id and address — and no secret', async () => {
    const { email, id } = await fresh('journey');
    const secrets: string[] = [DEMO_PASSWORD];

    // A wrong password, then the right one.
    assert.equal((await login(t, email, 'Wrong-password-123')).statusCode, 401);
    secrets.push('Wrong-password-123');
    const first = await signedIn(email);
    secrets.push(first.accessToken, first.jar.cookie, first.jar.xsrf);

    // Two-step sign-in on.
    const key = await bearer(t, first.accessToken, 'POST', '/api/user/two-step/totp');
    const { secret } = key.json() as { secret: string };
    const code = codeFor(t, secret);
    const confirm = await bearer(t, first.accessToken, 'POST', '/api/user/two-step/totp/confirm', { code });
    assert.equal(confirm.statusCode, 200, confirm.body);
    const { recoveryCodes } = confirm.json() as { recoveryCodes: string[] };
    secrets.push(secret, code, ...recoveryCodes);
    t.clock.advance(30_000);

    // A sign-in with a wrong code, then the right one.
    const pending = await login(t, email);
    const jar = cookiesFrom(pending);
    secrets.push(jar.cookie, jar.xsrf);
    const wrong = await withCookies(t, jar, '/account/two-step', { code: '000000' });
    assert.equal(wrong.statusCode, 401, wrong.body);
    const right = codeFor(t, secret);
    secrets.push(right);
    const done = await withCookies(t, jar, '/account/two-step', { code: right });
    assert.equal(done.statusCode, 200, done.body);
    const second = cookiesFrom(done);
    secrets.push(second.cookie, second.xsrf);

    // A new password (the other session ends), then the member signs out.
    const next = 'An0ther-long-passphrase!';
    secrets.push(next);
    const changed = await bearer(t, first.accessToken, 'POST', '/api/user/password', {
      oldPassword: DEMO_PASSWORD,
      newPassword: next,
      confirmNewPassword: next,
      signOutOthers: false,
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const out = await t.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: { cookie: first.jar.cookie, 'x-xsrf-token': first.jar.xsrf, accept: 'application/json' },
    });
    assert.equal(out.statusCode, 204, out.body);

    const events = await eventsOf(email);
    assert.deepEqual(
      events.map((e) => e.action),
      [
        'user.signInFailed',
        'user.signedIn',
        'user.twoStepEnabled',
        'user.twoStepFailed',
        'user.signedIn',
        'user.passwordChanged',
        'session.signedOut',
      ],
    );
    const acme = await teamId('acme');
    for (const event of events) {
      assert.equal(event.team_id, acme);
      assert.equal(event.actor_id, id);
      assert.equal(event.target, email);
      assert.match(event.request_id ?? '', /\S/, `${event.action} has no request id`);
      assert.equal(event.address, '127.0.0.1', `${event.action}'s address`);
    }
    assert.deepEqual(JSON.parse(events[1]!.detail).method, 'password');
    assert.deepEqual(JSON.parse(events[4]!.detail).method, 'twoStep');
    assert.deepEqual(JSON.parse(events[3]!.detail), { method: 'totp' });

    // Nothing secret anywhere in the rows, nor the password's hash.
    const user = await t.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    secrets.push(user.password_hash!);
    const stored = JSON.stringify(events);
    for (const value of secrets.flatMap((s) => s.split('; ').map((part) => part.split('=').pop()!)))
      assert.ok(!stored.includes(value), `an event holds a secret: ${value.slice(0, 6)}…`);
    // And what the export gives out neither.
    const from = new Date(events[0]!.created_at).toISOString();
    const to = new Date(t.clock.now() + 1).toISOString();
    const exported = await api(
      t,
      'GET',
      `/api/team/events/export?from=${from}&to=${to}&format=json`,
      who.owner,
    );
    assert.equal(exported.statusCode, 200, exported.body);
    for (const value of secrets) assert.ok(!exported.body.includes(value), 'the export holds a secret');
  });

  it("never records a sign-in for an address that is no member, and only in the member's own team", async () => {
    const before = await t.db.kysely
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal((await login(t, 'nobody-here@acme.test', 'whatever-123')).statusCode, 401);
    const after = await t.db.kysely
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n));

    const { email } = await fresh('only');
    await signedIn(email);
    const events = await eventsOf(email);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.team_id, await teamId('acme'));
    const globex = await api(t, 'GET', '/api/team/audit?kind=user&limit=100', who.otherAdmin);
    assert.ok(!globex.body.includes(email), "another team's log has the member's sign-in");
  });

  it('keeps no address when the deployment keeps none', async () => {
    const { config } = t.app.services;
    config.sessionAddresses = false;
    try {
      const { email } = await fresh('noaddr');
      await signedIn(email);
      const [event] = await eventsOf(email);
      assert.equal(event!.address, null);
      assert.equal(JSON.parse(event!.detail).address, undefined);
    } finally {
      config.sessionAddresses = true;
    }
  });

  it('writes the security log and the team event in one transaction: neither when one fails', async () => {
    const { id } = await fresh('atomic');
    const now = t.clock.now();
    // A detail that cannot be written (JSON.stringify throws on a BigInt) fails the team event.
    const broken = { type: 'user.passkeyAdded' as const, detail: { n: 1n }, address: null, requestId: null };
    await assert.rejects(
      t.app.services.repos.activity.record({ userId: id, kind: 'passkeyAdded', detail: {}, now }, broken),
    );
    const rows = await t.db.kysely
      .selectFrom('activity_events')
      .select('id')
      .where('user_id', '=', id)
      .execute();
    assert.equal(rows.length, 0, 'the security log kept an entry its team event lost');
  });

  it('leaves no event when an admin action fails', async () => {
    const before = await api(t, 'GET', '/api/team/audit?limit=1', who.owner);
    const refused = await api(t, 'POST', '/api/team/groups', who.owner, { name: '' });
    assert.equal(refused.statusCode, 400, refused.body);
    const after = await api(t, 'GET', '/api/team/audit?limit=1', who.owner);
    assert.deepEqual(after.json().events, before.json().events);
  });
});

describe('GET /api/team/audit: filters, range and paging', () => {
  let acme: string;
  const base = Date.UTC(2030, 0, 1);
  before(async () => {
    acme = await teamId('acme');
    // Ten events a day apart, by two actors, of two kinds.
    for (let i = 0; i < 10; i++) {
      await recordAudit(t.db.kysely, {
        teamId: acme,
        actor: i % 2 ? { id: 'actor-odd', name: 'Odd', email: 'odd@acme.test' } : null,
        action: i % 2 ? 'user.signedIn' : 'team.storage',
        target: `range-${i}`,
        now: base + i * 86_400_000,
        requestId: `req-${i}`,
      });
    }
  });

  const iso = (day: number) => new Date(base + day * 86_400_000).toISOString();
  const targets = (response: { json(): { events: Array<{ target: string }> } }) =>
    response.json().events.map((e) => e.target);

  it('gives the events in [from, to), newest first, a page at a time', async () => {
    const page1 = await api(t, 'GET', `/api/team/audit?from=${iso(2)}&to=${iso(7)}&limit=3`, who.admin);
    assert.equal(page1.statusCode, 200, page1.body);
    assert.deepEqual(targets(page1), ['range-6', 'range-5', 'range-4']);
    assert.equal(page1.json().events[0].requestId, 'req-6');
    const next = page1.json().next as string;
    const page2 = await api(
      t,
      'GET',
      `/api/team/audit?from=${iso(2)}&to=${iso(7)}&limit=3&before=${next}`,
      who.admin,
    );
    assert.deepEqual(targets(page2), ['range-3', 'range-2']);
    assert.equal(page2.json().next, null);
  });

  it('filters by kind and by actor within the range', async () => {
    const kind = await api(
      t,
      'GET',
      `/api/team/audit?from=${iso(0)}&to=${iso(10)}&kind=user&limit=100`,
      who.admin,
    );
    assert.deepEqual(targets(kind), ['range-9', 'range-7', 'range-5', 'range-3', 'range-1']);
    const actor = await api(
      t,
      'GET',
      `/api/team/audit?from=${iso(0)}&to=${iso(4)}&actor=actor-odd&limit=100`,
      who.admin,
    );
    assert.deepEqual(targets(actor), ['range-3', 'range-1']);
  });

  it('refuses a range that is not one (400 invalidRange)', async () => {
    expectError(
      await api(t, 'GET', `/api/team/audit?from=${iso(5)}&to=${iso(2)}`, who.admin),
      400,
      'invalidRange',
    );
    expectError(
      await api(t, 'GET', '/api/team/audit?from=yesterday', who.admin),
      400,
      'invalidRange',
      'from',
    );
  });
});

describe('GET /api/team/events/export', () => {
  const base = Date.UTC(2031, 5, 1);
  const from = new Date(base).toISOString();
  const to = new Date(base + 86_400_000).toISOString();
  const url = (format: string, range = `from=${from}&to=${to}`) =>
    `/api/team/events/export?${range}&format=${format}`;

  before(async () => {
    const acme = await teamId('acme');
    await recordAudit(t.db.kysely, {
      teamId: acme,
      actor: { id: 'x1', name: '=HYPERLINK("http://evil.test","click")', email: 'eve@acme.test' },
      action: 'group.created',
      target: '@SUM(1+1), "quoted"\nline',
      detail: { name: '+cmd' },
      now: base + 1000,
      address: '203.0.113.9',
      requestId: 'req-export',
    });
    await recordAudit(t.db.kysely, {
      teamId: acme,
      actor: null,
      action: 'team.storage',
      target: '-42',
      now: base + 2000,
    });
    // Outside the range: not exported.
    await recordAudit(t.db.kysely, {
      teamId: acme,
      actor: null,
      action: 'team.storage',
      target: 'outside',
      now: base - 1,
    });
  });

  it('gives the range as JSON, an attachment of TeamEvent, newest first', async () => {
    const response = await api(t, 'GET', url('json'), who.admin);
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.equal(
      response.headers['content-disposition'],
      'attachment; filename="events-acme-2031-06-01-2031-06-01.json"',
    );
    const events = response.json() as TeamEvent[];
    assert.deepEqual(
      events.map((e) => e.target),
      ['-42', '@SUM(1+1), "quoted"\nline'],
    );
    assert.deepEqual(Object.keys(events[1]!).sort(), [
      'actor',
      'address',
      'detail',
      'id',
      'requestId',
      'target',
      'time',
      'type',
    ]);
    assert.deepEqual(events[1]!.actor, {
      id: 'x1',
      name: '=HYPERLINK("http://evil.test","click")',
      email: 'eve@acme.test',
    });
    assert.equal(events[1]!.time, new Date(base + 1000).toISOString());
    assert.equal(events[1]!.address, '203.0.113.9');
    assert.equal(events[1]!.requestId, 'req-export');
  });

  it('gives the range as CSV, quoted per RFC 4180 and safe from formulas', async () => {
    const response = await api(t, 'GET', url('csv'), who.owner);
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^text\/csv/);
    assert.match(
      String(response.headers['content-disposition']),
      /^attachment; filename="events-acme-.*\.csv"$/,
    );
    const lines = response.body.split('\r\n');
    assert.equal(lines[0], 'id,type,time,actor_id,actor_name,actor_email,target,address,request_id,detail');
    assert.ok(
      lines[1]!.includes(`team.storage,${new Date(base + 2000).toISOString()},,,,'-42,,,{}`),
      lines[1],
    );
    const body = response.body;
    assert.ok(
      body.includes(`"'=HYPERLINK(""http://evil.test"",""click"")"`),
      'the formula cell is not neutralised',
    );
    assert.ok(body.includes(`"'@SUM(1+1), ""quoted""\nline"`), 'the target is not quoted and neutralised');
    assert.ok(body.includes('"{""name"":""+cmd""}"'), 'the detail is not quoted');
    assert.ok(!body.includes('outside'));
  });

  it('streams an empty range as an empty list and a header', async () => {
    const range = `from=${new Date(base + 10 * 86_400_000).toISOString()}&to=${new Date(base + 11 * 86_400_000).toISOString()}`;
    assert.deepEqual((await api(t, 'GET', url('json', range), who.admin)).json(), []);
    const csv = await api(t, 'GET', url('csv', range), who.admin);
    assert.equal(
      csv.body,
      'id,type,time,actor_id,actor_name,actor_email,target,address,request_id,detail\r\n',
    );
  });

  it('refuses a missing, crossed or too long range and an unknown format', async () => {
    expectError(await api(t, 'GET', `/api/team/events/export?to=${to}&format=csv`, who.admin), 400);
    expectError(await api(t, 'GET', url('csv', `from=${to}&to=${from}`), who.admin), 400, 'invalidRange');
    expectError(
      await api(
        t,
        'GET',
        url('csv', `from=${from}&to=${new Date(base + 367 * 86_400_000).toISOString()}`),
        who.admin,
      ),
      400,
      'rangeTooLong',
      'to',
    );
    expectError(await api(t, 'GET', url('xml'), who.admin), 400, 'invalidFormat', 'format');
  });

  it("answers owners and admins of the team only; another team's admin gets their own team's events", async () => {
    expectError(await api(t, 'GET', url('json')), 401);
    expectError(await api(t, 'GET', url('json'), who.member), 403, 'notAdmin');
    const other = await api(t, 'GET', url('json'), who.otherAdmin);
    assert.equal(other.statusCode, 200, other.body);
    assert.deepEqual(other.json(), []);
    assert.equal((await api(t, 'GET', url('json'), who.admin)).statusCode, 200);
    assert.equal((await api(t, 'GET', url('json'), who.owner)).statusCode, 200);
  });

  it('answers the list the same way: 401, 403, and the caller team only', async () => {
    const range = `from=${from}&to=${to}`;
    expectError(await api(t, 'GET', `/api/team/audit?${range}`), 401);
    expectError(await api(t, 'GET', `/api/team/audit?${range}`, who.member), 403, 'notAdmin');
    assert.deepEqual((await api(t, 'GET', `/api/team/audit?${range}`, who.otherAdmin)).json().events, []);
    assert.equal((await api(t, 'GET', `/api/team/audit?${range}`, who.admin)).json().events.length, 2);
  });
});
