import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { TestSmtp } from '../support/smtp';
import { createTestApp, sessionFor, tokenFor, type TestApp } from '../support/test-server';

let smtp: TestSmtp;
let t: TestApp;
before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url });
});
after(async () => {
  await t.close();
  await smtp.close();
});

type Method = 'GET' | 'POST' | 'PUT';

/** A bearer call made by a client without cookies (an API client, or an element across origins). */
function call(
  method: Method,
  url: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    payload: body ? JSON.stringify(body) : undefined,
  });
}

async function login(email: string, password: string, team = 'acme') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/account/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ teamName: team, email, password }),
  });
  return response.statusCode;
}

describe('GET /api/user/permissions and /api/user/password', () => {
  it('gives every permission as a boolean', async () => {
    const { accessToken } = await tokenFor(t.app, 'ada@acme.test');
    const response = await call('GET', '/api/user/permissions', accessToken);
    assert.deepEqual(response.json(), {
      OWNER: true,
      ADMIN: false,
      EDITOR: false,
      APPROVER: false,
      SPOKE: false,
    });
  });

  it('gives the password options with external accounts', async () => {
    const ada = await call('GET', '/api/user/password', (await tokenFor(t.app, 'ada@acme.test')).accessToken);
    const body = ada.json();
    assert.equal(body.hasPassword, true);
    assert.ok(!Number.isNaN(Date.parse(body.password_changed)));
    assert.deepEqual(body.externalAccounts, [{ providerName: 'Google', userName: 'ada@acme.test' }]);
    const dan = (
      await call('GET', '/api/user/password', (await tokenFor(t.app, 'dan@umbrella.test')).accessToken)
    ).json();
    assert.deepEqual(dan, {
      hasPassword: false,
      password_changed: null,
      externalAccounts: [{ providerName: 'AzureAD', userName: 'dan@umbrella.test' }],
    });
  });

  it('needs a valid access token', async () => {
    for (const url of ['/api/user/permissions', '/api/user/password']) {
      assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 401);
      assert.equal((await call('GET', url, 'not.a.token')).statusCode, 401);
    }
  });
});

describe('POST /api/user (name)', () => {
  it('trims and stores 1–50 characters, refuses more, empty and control characters', async () => {
    const { accessToken } = await tokenFor(t.app, 'carol@globex.test');
    const set = (name: unknown) => call('POST', '/api/user', accessToken, { name });
    assert.equal((await set('  Carol  Díaz  ')).json().name, 'Carol  Díaz');
    assert.equal((await set('x'.repeat(50))).statusCode, 200);
    assert.equal((await set('x'.repeat(51))).statusCode, 400);
    assert.equal((await set('   ')).statusCode, 400);
    assert.equal((await set('Carol\u0000')).statusCode, 400);
    assert.equal((await set('Carol\u0085x')).statusCode, 400);
    assert.equal((await set(7)).statusCode, 400);
    assert.equal(
      (await call('POST', '/api/user', accessToken, { name: 'x', team_id: 'other' })).statusCode,
      400,
    );
    const rtl = '\u202eevil\u202c <img src=x onerror=alert(1)>';
    assert.equal((await set(rtl)).statusCode, 200);
    const info = (await call('GET', '/connect/userinfo', accessToken)).json();
    assert.equal(info.name, rtl);
    assert.equal((await set('Carol Diaz')).statusCode, 200);
  });

  it('asks a browser that sends cookies for the anti-forgery token', async () => {
    const session = await tokenFor(t.app, 'carol@globex.test');
    const forged = await call(
      'POST',
      '/api/user',
      session.accessToken,
      { name: 'Forged' },
      { cookie: session.cookie },
    );
    assert.equal(forged.statusCode, 403);
    const ok = await call(
      'POST',
      '/api/user',
      session.accessToken,
      { name: 'Carol Diaz' },
      { cookie: session.cookie, 'x-xsrf-token': session.xsrf },
    );
    assert.equal(ok.statusCode, 200);
  });
});

describe('POST and PUT /api/user/password', () => {
  it("changes a password with the current one, keeps the caller's session and ends the others", async () => {
    const other = await sessionFor(t.app, 'ada@acme.test');
    const mine = await tokenFor(t.app, 'ada@acme.test');
    const wrong = await call('POST', '/api/user/password', mine.accessToken, {
      oldPassword: 'not it',
      newPassword: 'ada has a new one',
      confirmNewPassword: 'ada has a new one',
    });
    assert.equal(wrong.statusCode, 400);
    assert.deepEqual(wrong.json(), { message: 'InvalidPassword' });
    const weak = await call('POST', '/api/user/password', mine.accessToken, {
      oldPassword: DEMO_PASSWORD,
      newPassword: 'password1',
      confirmNewPassword: 'password1',
    });
    assert.equal(weak.statusCode, 400);
    assert.match(weak.json().message, /too common/);
    const mismatch = await call('POST', '/api/user/password', mine.accessToken, {
      oldPassword: DEMO_PASSWORD,
      newPassword: 'ada has a new one',
      confirmNewPassword: 'ada has another',
    });
    assert.equal(mismatch.json().message, 'The passwords do not match.');
    const ok = await call('POST', '/api/user/password', mine.accessToken, {
      oldPassword: DEMO_PASSWORD,
      newPassword: 'ada has a new one',
      confirmNewPassword: 'ada has a new one',
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(await login('ada@acme.test', 'ada has a new one'), 200);
    assert.equal(await login('ada@acme.test', DEMO_PASSWORD), 401);
    const states = await t.db.kysely
      .selectFrom('sessions')
      .select(['public_id', 'revoked_at'])
      .where('public_id', 'in', [other.publicId, mine.publicId])
      .execute();
    const revoked = Object.fromEntries(states.map((s) => [s.public_id, s.revoked_at !== null]));
    assert.deepEqual(revoked, { [other.publicId]: true, [mine.publicId]: false });
    assert.match((await smtp.next('ada@acme.test', /changed/)).text, /was changed/);
    // Back to the demo password.
    const back = await call('POST', '/api/user/password', mine.accessToken, {
      oldPassword: 'ada has a new one',
      newPassword: DEMO_PASSWORD,
      confirmNewPassword: DEMO_PASSWORD,
    });
    assert.equal(back.statusCode, 200);
    await smtp.next('ada@acme.test', /changed/);
  });

  it('sets a first password with PUT, then refuses a second PUT (409) and POST without one', async () => {
    const bob = await tokenFor(t.app, 'bob@acme.test');
    const post = await call('POST', '/api/user/password', bob.accessToken, {
      oldPassword: 'x',
      newPassword: 'y',
      confirmNewPassword: 'y',
    });
    assert.equal(post.statusCode, 409);
    const set = await call('PUT', '/api/user/password', bob.accessToken, {
      newPassword: 'bob finally has one',
      confirmNewPassword: 'bob finally has one',
    });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(await login('bob@acme.test', 'bob finally has one'), 200);
    const again = await call('PUT', '/api/user/password', bob.accessToken, {
      newPassword: 'another long one',
      confirmNewPassword: 'another long one',
    });
    assert.equal(again.statusCode, 409);
    await smtp.next('bob@acme.test', /changed/);
  });

  it('rejects unknown fields and wrong types', async () => {
    const { accessToken } = await tokenFor(t.app, 'carol@globex.test');
    const extra = await call('PUT', '/api/user/password', accessToken, {
      newPassword: 'a',
      confirmNewPassword: 'a',
      userId: 'x',
    });
    assert.equal(extra.statusCode, 400);
    const types = await call('POST', '/api/user/password', accessToken, {
      oldPassword: 1,
      newPassword: 'a',
      confirmNewPassword: 'a',
    });
    assert.equal(types.statusCode, 400);
  });
});
