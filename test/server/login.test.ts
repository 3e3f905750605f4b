import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { LOCKOUT_MS } from '../../demo/server/lib/lockout';
import { makeUser } from '../support/two-step';
import { proofFor } from '../support/proof';
import type { Proof } from '../../src/contract/schemas/challenge';
import { PasswordHasher, scryptParams } from '../../demo/server/lib/password';
import {
  createTestApp,
  PRODUCTION_HASH_COST,
  sessionFor,
  TEST_HASH_COST,
  type TestApp,
} from '../support/test-server';

let t: TestApp;
before(async () => {
  // Failures from this one address: the per-address challenge has its own test (proof-of-work.test.ts).
  t = await createTestApp({ LOGIN_ADDRESS_LIMIT: '1000', CHALLENGE_ADDRESS_FAILURES: '1000' });
});
after(() => t.close());
beforeEach(async () => {
  await t.db.kysely.deleteFrom('login_failures').execute();
  await t.db.kysely.deleteFrom('rate_limits').execute();
  t.clock.offset = 0;
});

function login(
  teamName: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
  on: TestApp = t,
  proof?: Proof,
) {
  return on.app.inject({
    method: 'POST',
    url: '/account/login',
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ teamName, email, password, proof }),
  });
}

/** A sign-in with a solved challenge: after two failures of an account, every try needs one. */
async function loginProved(teamName: string, email: string, password: string) {
  return login(teamName, email, password, {}, t, await proofFor(t.app));
}

const cookie = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((c) => c.name === name);

describe('POST /account/login', () => {
  it('signs in: a new session cookie (HttpOnly) and a session-bound XSRF cookie', async () => {
    const response = await login('acme', 'ada@acme.test', DEMO_PASSWORD);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { authenticated: true });
    const session = cookie(response, 'acct_session')!;
    assert.equal(session.httpOnly, true);
    assert.equal(session.secure, true);
    assert.equal(session.sameSite, 'None');
    assert.match(session.value, /^[A-Za-z0-9_-]{43}$/);
    const xsrf = cookie(response, 'XSRF-TOKEN')!;
    assert.match(xsrf.value, /^s\./);
    const check = await t.app.inject({
      method: 'POST',
      url: '/account/check',
      headers: {
        cookie: `acct_session=${session.value}; XSRF-TOKEN=${xsrf.value}`,
        'x-xsrf-token': xsrf.value,
      },
    });
    assert.equal(check.json().authenticated, true);
  });

  it('normalises the team and e-mail (case, spaces)', async () => {
    const response = await login('  ACME ', ' Ada@Acme.TEST ', DEMO_PASSWORD);
    assert.equal(response.statusCode, 200);
  });

  it('locks (team, e-mail) for 15 minutes after 5 consecutive failures', async () => {
    for (let attempt = 1; attempt <= 2; attempt++) {
      assert.equal((await login('acme', 'ada@acme.test', 'wrong')).statusCode, 401, `attempt ${attempt}`);
    }
    // From the third try on, a solved challenge comes first.
    const unproved = await login('acme', 'ada@acme.test', 'wrong');
    assert.equal(unproved.statusCode, 403);
    assert.equal(unproved.json().code, 'challengeRequired');
    for (let attempt = 3; attempt <= 4; attempt++) {
      assert.equal(
        (await loginProved('acme', 'ada@acme.test', 'wrong')).statusCode,
        401,
        `attempt ${attempt}`,
      );
    }
    const fifth = await loginProved('acme', 'ada@acme.test', 'wrong');
    // The lock runs from here: the sign-ins below hash passwords, which on a loaded machine takes
    // seconds of the clock this test moves.
    const lockedAt = t.clock.now();
    assert.equal(fifth.statusCode, 403);
    assert.deepEqual(fifth.json(), { message: 'account locked' });
    // Even the right password is refused while locked, and another team's same address is not.
    assert.equal((await login('acme', 'ada@acme.test', DEMO_PASSWORD)).statusCode, 403);
    assert.equal((await login('globex', 'carol@globex.test', DEMO_PASSWORD)).statusCode, 200);
    t.clock.advance(lockedAt + LOCKOUT_MS - 1000 - t.clock.now());
    assert.equal((await login('acme', 'ada@acme.test', DEMO_PASSWORD)).statusCode, 403);
    t.clock.advance(lockedAt + LOCKOUT_MS + 1000 - t.clock.now());
    // A lock that has run out starts the count again: no challenge for the next try.
    assert.equal((await login('acme', 'ada@acme.test', DEMO_PASSWORD)).statusCode, 200);
  });

  it('resets the count after a success', async () => {
    for (let attempt = 0; attempt < 4; attempt++) await loginProved('acme', 'ada@acme.test', 'wrong');
    assert.equal((await loginProved('acme', 'ada@acme.test', DEMO_PASSWORD)).statusCode, 200);
    for (let attempt = 0; attempt < 2; attempt++) {
      assert.equal((await login('acme', 'ada@acme.test', 'wrong')).statusCode, 401);
    }
  });

  it('counts failures for unknown e-mails too (a lock reveals nothing)', async () => {
    for (let attempt = 0; attempt < 5; attempt++) await loginProved('acme', 'ghost@acme.test', 'whatever');
    assert.equal((await login('acme', 'ghost@acme.test', 'whatever')).statusCode, 403);
    const row = await t.db.kysely
      .selectFrom('login_failures')
      .selectAll()
      .where('email', '=', 'ghost@acme.test')
      .executeTakeFirstOrThrow();
    assert.equal(row.failures, 5);
  });

  it('refuses a user locked by an administrator — shown only with the right password', async () => {
    assert.equal((await login('acme', 'locked@acme.test', DEMO_PASSWORD)).statusCode, 403);
    assert.equal((await login('acme', 'locked@acme.test', 'wrong')).statusCode, 401);
  });

  it('says an administrator turned the account off — only after the right password', async () => {
    const id = await makeUser(t, 'off@acme.test');
    await t.db.kysely.updateTable('users').set({ disabled_at: t.clock.now() }).where('id', '=', id).execute();
    const wrong = await login('acme', 'off@acme.test', 'wrong password');
    assert.equal(wrong.statusCode, 401);
    assert.deepEqual(wrong.json(), { message: 'invalid credentials' }, 'a wrong password learns nothing');
    const right = await login('acme', 'off@acme.test', DEMO_PASSWORD);
    assert.equal(right.statusCode, 403, right.body);
    assert.equal(right.json().code, 'disabled');
    assert.equal(
      right.cookies.find((c) => c.name === 'acct_session'),
      undefined,
    );
  });

  it("rotates the session: the browser's previous session is revoked", async () => {
    const old = await sessionFor(t.app, 'carol@globex.test');
    const response = await login('acme', 'ada@acme.test', DEMO_PASSWORD, {
      cookie: old.cookie,
      'x-xsrf-token': old.xsrf,
    });
    assert.equal(response.statusCode, 200);
    assert.notEqual(cookie(response, 'acct_session')!.value, old.token);
    const row = await t.db.kysely
      .selectFrom('sessions')
      .select('revoked_at')
      .where('public_id', '=', old.publicId)
      .executeTakeFirstOrThrow();
    assert.notEqual(row.revoked_at, null);
  });

  it('logout revokes the session it created', async () => {
    const response = await login('acme', 'ada@acme.test', DEMO_PASSWORD);
    const session = cookie(response, 'acct_session')!.value;
    const xsrf = cookie(response, 'XSRF-TOKEN')!.value;
    const logout = await t.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: {
        cookie: `acct_session=${session}; XSRF-TOKEN=${xsrf}`,
        'x-xsrf-token': xsrf,
        accept: 'application/json',
      },
    });
    assert.equal(logout.statusCode, 204);
    const check = await t.app.inject({
      method: 'POST',
      url: '/account/check',
      headers: { cookie: `acct_session=${session}`, origin: 'https://suite.example.test' },
    });
    assert.deepEqual(check.json(), { authenticated: false });
  });

  it('validates the body: missing or extra fields, wrong types, non-JSON', async () => {
    const bad = [
      JSON.stringify({ teamName: 'acme', email: 'a@b.c' }),
      JSON.stringify({ teamName: 'acme', email: 'a@b.c', password: 'x', extra: 1 }),
      JSON.stringify({ teamName: 1, email: 'a@b.c', password: 'x' }),
      JSON.stringify({ teamName: 'acme', email: 'a'.repeat(400), password: 'x' }),
      '{"teamName":',
    ];
    for (const payload of bad) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/account/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      assert.equal(response.statusCode, 400, payload);
      assert.equal(typeof response.json().message, 'string');
    }
    const form = await t.app.inject({
      method: 'POST',
      url: '/account/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'teamName=acme&email=a&password=b',
    });
    assert.equal(form.statusCode, 415);
  });

  it('asks a cookie-bearing browser for the anti-forgery token, like every unsafe call', async () => {
    const response = await login('acme', 'ada@acme.test', DEMO_PASSWORD, { cookie: 'XSRF-TOKEN=a.b.c' });
    assert.equal(response.statusCode, 403);
  });
});

describe('per-address rate limit', () => {
  it('answers 429 with Retry-After past the limit, and lets the next window in', async () => {
    const limited = await createTestApp({ LOGIN_ADDRESS_LIMIT: '3' });
    try {
      // A new address each time: an account's third failure would ask for a challenge first.
      let n = 0;
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/account/login',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ teamName: 'acme', email: `x${++n}@acme.test`, password: 'wrong' }),
        });
      for (let i = 0; i < 3; i++) assert.equal((await attempt()).statusCode, 401);
      const refused = await attempt();
      assert.equal(refused.statusCode, 429);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      limited.clock.advance(5 * 60_000 + 1);
      assert.equal((await attempt()).statusCode, 401);
    } finally {
      await limited.close();
    }
  });
});

describe('password hashing at the production cost', () => {
  // The other tests hash at the test servers' cheap cost; these need the server's real one.
  let real: TestApp;
  before(async () => {
    real = await createTestApp({ LOGIN_ADDRESS_LIMIT: '1000', HASH_COST: PRODUCTION_HASH_COST });
  });
  after(() => real.close());

  it('answers every failure kind the same way, after the same hashing work', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['wrong password', 'acme', 'ada@acme.test', 'not-the-password'],
      ['unknown e-mail', 'acme', 'nobody@acme.test', DEMO_PASSWORD],
      ['unknown team', 'nowhere', 'ada@acme.test', DEMO_PASSWORD],
      ['disabled team', 'initech', 'ada@acme.test', DEMO_PASSWORD],
      ['user without a password', 'acme', 'bob@acme.test', DEMO_PASSWORD],
      ['team without the local form', 'umbrella', 'dan@umbrella.test', DEMO_PASSWORD],
    ];
    const answers = new Set<string>();
    for (const [name, team, email, password] of cases) {
      const before = real.app.services.hasher.derivations;
      const response = await login(team, email, password, {}, real);
      assert.equal(response.statusCode, 401, name);
      assert.equal(real.app.services.hasher.derivations - before, 1, `${name}: exactly one key derivation`);
      assert.equal(cookie(response, 'acct_session'), undefined, name);
      answers.add(`${response.statusCode} ${response.body}`);
    }
    assert.deepEqual([...answers], ['401 {"message":"invalid credentials"}']);
  });

  it('hashes at HASH_COST, and upgrades a weaker stored hash at the next sign-in', async () => {
    assert.match(await real.app.services.hasher.hash('x'), /^\$scrypt\$ln=17,r=8,p=1\$/);
    assert.match(
      await t.app.services.hasher.hash('x'),
      new RegExp(`^\\$scrypt\\$ln=${TEST_HASH_COST},r=8,p=1\\$`),
    );
    const weak = await new PasswordHasher(1, 1, scryptParams(Number(TEST_HASH_COST))).hash(DEMO_PASSWORD);
    const carol = real.db.kysely.updateTable('users').where('email', '=', 'carol@globex.test');
    await carol.set({ password_hash: weak }).execute();
    assert.equal((await login('globex', 'carol@globex.test', DEMO_PASSWORD, {}, real)).statusCode, 200);
    const row = await real.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', 'carol@globex.test')
      .executeTakeFirstOrThrow();
    assert.match(row.password_hash ?? '', /^\$scrypt\$ln=17,r=8,p=1\$/);
    assert.equal(await real.app.services.hasher.verify(DEMO_PASSWORD, row.password_hash), true);
  });
});
