import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertMember } from '../../demo/server/db/members';
import { TestSmtp } from '../support/smtp';
import { createTestApp, sessionFor, tokenFor, type TestApp } from '../support/test-server';
import { proofFor } from '../support/proof';

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

const NEW_PASSWORD = 'a brand new passphrase';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The bearer call every token below is tried on. */
const permissions = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/user/permissions', headers: bearer(token) })).statusCode;

function json(
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  return t.app.inject({
    method,
    url,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    payload: body ? JSON.stringify(body) : undefined,
  });
}

async function userOf(email: string) {
  return t.db.kysely
    .selectFrom('users')
    .innerJoin('teams', 'teams.id', 'users.team_id')
    .select(['users.id', 'users.name', 'users.email', 'users.team_id', 'teams.name as team_name'])
    .where('users.email', '=', email)
    .executeTakeFirstOrThrow();
}

async function resetPassword(email: string, team: string, password: string) {
  const proof = await proofFor(t.app);
  const request = await json(
    'POST',
    '/api/user/password/request',
    {},
    { teamName: team, userName: email, proof },
  );
  assert.equal(request.statusCode, 200);
  const link = new URL((await smtp.next(email, /password/i)).link!);
  const reset = await json(
    'POST',
    '/api/user/password/reset',
    {},
    {
      teamName: team,
      userId: link.searchParams.get('id')!,
      token: link.searchParams.get('token')!,
      newPassword: password,
    },
  );
  assert.equal(reset.statusCode, 200, reset.body);
  await smtp.next(email, /changed/i);
}

/** A device-code (QR) token: the mobile app's, bound to no browser session. */
async function deviceToken(portalToken: string): Promise<string> {
  const generated = await t.app.inject({
    method: 'POST',
    url: '/api/DeviceCode/generate',
    headers: bearer(portalToken),
  });
  assert.equal(generated.statusCode, 200, generated.body);
  const exchanged = await t.app.inject({
    method: 'POST',
    url: '/connect/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: generated.json().device_code,
      client_id: 'acct-mobile',
    }).toString(),
  });
  assert.equal(exchanged.statusCode, 200, exchanged.body);
  return exchanged.json().access_token as string;
}

describe('access tokens end with what they were issued on', () => {
  it('refuses the tokens of every session once the password is reset', async () => {
    const a = await tokenFor(t.app, 'ada@acme.test');
    const b = await tokenFor(t.app, 'ada@acme.test');
    assert.equal(await permissions(a.accessToken), 200);
    await resetPassword('ada@acme.test', 'acme', NEW_PASSWORD);
    assert.equal(await permissions(a.accessToken), 401);
    assert.equal(await permissions(b.accessToken), 401);
    const userinfo = await t.app.inject({
      method: 'GET',
      url: '/connect/userinfo',
      headers: bearer(a.accessToken),
    });
    assert.equal(userinfo.statusCode, 401);
    assert.match(String(userinfo.headers['www-authenticate']), /invalid_token/);
    // A new sign-in gets working tokens again.
    assert.equal(await permissions((await tokenFor(t.app, 'ada@acme.test')).accessToken), 200);
  });

  it("refuses the other sessions' tokens after a password change, keeps the caller's", async () => {
    const other = await tokenFor(t.app, 'carol@globex.test');
    const own = await tokenFor(t.app, 'carol@globex.test');
    const change = await json('POST', '/api/user/password', bearer(own.accessToken), {
      oldPassword: 'portal-demo-pass',
      newPassword: NEW_PASSWORD,
      confirmNewPassword: NEW_PASSWORD,
    });
    assert.equal(change.statusCode, 200, change.body);
    assert.equal(await permissions(other.accessToken), 401);
    assert.equal(await permissions(own.accessToken), 200);
  });

  it('refuses the tokens of a session that signed out, not those of other sessions', async () => {
    const leaving = await tokenFor(t.app, 'ada@acme.test');
    const staying = await tokenFor(t.app, 'ada@acme.test');
    const logout = await t.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: { cookie: leaving.cookie, 'x-xsrf-token': leaving.xsrf, accept: 'application/json' },
    });
    assert.equal(logout.statusCode, 204);
    assert.equal(await permissions(leaving.accessToken), 401);
    assert.equal(await permissions(staying.accessToken), 200);
  });

  it('refuses the tokens of an expired session', async () => {
    const session = await tokenFor(t.app, 'ada@acme.test');
    await t.db.kysely
      .updateTable('sessions')
      .set({ expires_at: t.clock.now() - 1 })
      .where('public_id', '=', session.publicId)
      .execute();
    assert.equal(await permissions(session.accessToken), 401);
  });

  it('binds developer tokens (/home/token) to the session they were made in', async () => {
    const session = await sessionFor(t.app, 'ada@acme.test');
    const issued = await t.app.inject({
      method: 'POST',
      url: '/home/token',
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        __RequestVerificationToken: session.xsrf,
        scope: 'Team_Admin',
      }).toString(),
    });
    assert.equal(issued.statusCode, 303, issued.body);
    const fragment = new URLSearchParams(String(issued.headers.location).split('#')[1]);
    const token = fragment.get('access_token')!;
    assert.equal(await permissions(token), 200);
    await t.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf, accept: 'application/json' },
    });
    assert.equal(await permissions(token), 401);
  });

  it('keeps device-code tokens (no session) until the password changes', async () => {
    // A device token is checked against the second of the last password change: start a second after
    // ada's reset in the first test, which may be less than a second ago.
    t.clock.advance(1500);
    const portal = await tokenFor(t.app, 'ada@acme.test');
    const mobile = await deviceToken(portal.accessToken);
    // Signing out of the browser does not sign the phone out: it holds its own grant.
    await t.app.inject({
      method: 'POST',
      url: '/account/logout',
      headers: { cookie: portal.cookie, 'x-xsrf-token': portal.xsrf, accept: 'application/json' },
    });
    assert.equal(await permissions(mobile), 200);
    // The clock only moves forward in this file: the later tests rely on a past password change.
    t.clock.advance(1500);
    await resetPassword('ada@acme.test', 'acme', 'yet another passphrase');
    assert.equal(await permissions(mobile), 401);
    // Issued after the change (a later second): valid.
    t.clock.advance(1500);
    const later = await deviceToken((await tokenFor(t.app, 'ada@acme.test')).accessToken);
    assert.equal(await permissions(later), 200);
  });

  it('keeps the tokens of an account issued in the second it was made with its password', async () => {
    // A new owner sent straight back to an app from sign-up gets its token in the account's first
    // second. Made half a second ahead, the account's second is never before the token's.
    const { team_id: teamId } = await userOf('ada@acme.test');
    await insertMember(t.db.kysely, {
      teamId,
      email: 'newcomer@acme.test',
      name: 'Nia Newcomer',
      passwordHash: 'set when the account was made',
      permissions: ['EDITOR'],
      language: null,
      now: t.clock.now() + 500,
    });
    const portal = await tokenFor(t.app, 'newcomer@acme.test');
    assert.equal(await permissions(await deviceToken(portal.accessToken)), 200);
  });
});

describe('bearer routes without a valid token (401)', () => {
  const routes = (): Array<{ method: 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown }> => [
    {
      method: 'POST',
      url: '/api/user/password',
      body: { oldPassword: 'x', newPassword: NEW_PASSWORD, confirmNewPassword: NEW_PASSWORD },
    },
    {
      method: 'PUT',
      url: '/api/user/password',
      body: { newPassword: NEW_PASSWORD, confirmNewPassword: NEW_PASSWORD },
    },
    { method: 'POST', url: '/api/user', body: { name: 'Mallory' } },
    { method: 'DELETE', url: '/api/user/password/Google' },
    { method: 'DELETE', url: '/api/user/password/AzureAD' },
    { method: 'DELETE', url: '/api/user/password/Auth0' },
    { method: 'POST', url: '/api/DeviceCode/generate' },
  ];

  it('answers 401 with WWW-Authenticate without a token, or with a malformed one', async () => {
    for (const route of routes()) {
      const attempts: Array<Record<string, string>> = [
        {},
        { authorization: 'Bearer nonsense-token' },
        { authorization: 'Basic YTpi' },
      ];
      for (const headers of attempts) {
        const response = await json(route.method, route.url, headers, route.body);
        assert.equal(response.statusCode, 401, `${route.method} ${route.url} ${JSON.stringify(headers)}`);
        assert.equal(response.headers['www-authenticate'], 'Bearer error="invalid_token"');
      }
    }
  });

  it("takes the team from the token: a properly signed token naming another team's user acts on nobody", async () => {
    const ada = await userOf('ada@acme.test');
    const carol = await userOf('carol@globex.test');
    const { tokens, config } = t.app.services;
    const mint = (user: typeof ada, teamId: string) =>
      tokens.accessToken(
        { userId: user.id, teamId, teamName: user.team_name, name: user.name, email: user.email },
        config.portalClientId,
        ['openid'],
      );
    // Ada's id with Globex's team, and Carol's id with Acme's team.
    for (const forged of [await mint(ada, carol.team_id), await mint(carol, ada.team_id)]) {
      for (const route of routes()) {
        const response = await json(route.method, route.url, bearer(forged), route.body);
        assert.equal(response.statusCode, 401, `${route.method} ${route.url}`);
      }
      assert.equal(await permissions(forged), 401);
    }
    assert.equal((await userOf('ada@acme.test')).name, ada.name);
    assert.equal((await userOf('carol@globex.test')).name, carol.name);

    // The same token with the user's own team works, so the team is what refused it above.
    t.clock.advance(1500); // a later second than any password change above
    const genuine = await mint(ada, ada.team_id);
    const renamed = await json('POST', '/api/user', bearer(genuine), { name: ada.name });
    assert.equal(renamed.statusCode, 200, renamed.body);
  });

  it('never takes a team or user from the body', async () => {
    const ada = await tokenFor(t.app, 'ada@acme.test');
    for (const extra of [{ teamName: 'globex' }, { teamId: 'x' }, { userId: 'x' }]) {
      const response = await json('POST', '/api/user', bearer(ada.accessToken), { name: 'Ada', ...extra });
      assert.equal(response.statusCode, 400, JSON.stringify(extra));
    }
  });
});

describe('what a bearer call reads of its caller is kept only until the database changes', () => {
  const userinfo = async (token: string) => {
    const response = await t.app.inject({ method: 'GET', url: '/connect/userinfo', headers: bearer(token) });
    return { status: response.statusCode, name: response.statusCode === 200 ? response.json().name : null };
  };

  /** A user of its own in Acme, so deleting or renaming it disturbs no other test. */
  async function newUser(email: string) {
    const acme = await userOf('ada@acme.test');
    await t.db.kysely
      .insertInto('users')
      .values({
        id: `user-${email}`,
        team_id: acme.team_id,
        email,
        name: 'Grace Hopper',
        password_hash: null,
        password_changed_at: null,
        locked: 0,
        language: null,
        created_at: t.clock.now(),
      })
      .execute();
  }

  it('answers with the new name at once after a rename, by the route or by any other write', async () => {
    await newUser('grace@acme.test');
    const { accessToken } = await tokenFor(t.app, 'grace@acme.test');
    assert.deepEqual(await userinfo(accessToken), { status: 200, name: 'Grace Hopper' });
    assert.deepEqual(await userinfo(accessToken), { status: 200, name: 'Grace Hopper' });
    const renamed = await json('POST', '/api/user', bearer(accessToken), { name: 'Rear Admiral Hopper' });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.deepEqual(await userinfo(accessToken), { status: 200, name: 'Rear Admiral Hopper' });
    await t.db.kysely
      .updateTable('users')
      .set({ name: 'Amazing Grace' })
      .where('email', '=', 'grace@acme.test')
      .execute();
    assert.deepEqual(await userinfo(accessToken), { status: 200, name: 'Amazing Grace' });
  });

  it('refuses a token it has just accepted once its session is revoked, whoever revokes it', async () => {
    const session = await tokenFor(t.app, 'ada@acme.test');
    assert.equal((await userinfo(session.accessToken)).status, 200);
    assert.equal((await userinfo(session.accessToken)).status, 200);
    await t.db.kysely
      .updateTable('sessions')
      .set({ revoked_at: t.clock.now() })
      .where('public_id', '=', session.publicId)
      .execute();
    assert.equal((await userinfo(session.accessToken)).status, 401);
  });

  it("refuses a token it has just accepted once its session's end passes, with no write in between", async () => {
    const session = await tokenFor(t.app, 'ada@acme.test');
    await t.db.kysely
      .updateTable('sessions')
      .set({ expires_at: t.clock.now() + 1000 })
      .where('public_id', '=', session.publicId)
      .execute();
    assert.equal((await userinfo(session.accessToken)).status, 200);
    assert.equal((await userinfo(session.accessToken)).status, 200);
    t.clock.advance(1000);
    assert.equal((await userinfo(session.accessToken)).status, 401);
  });

  it('refuses a token it has just accepted once its user is deleted', async () => {
    await newUser('leaving@acme.test');
    const leaving = await tokenFor(t.app, 'leaving@acme.test');
    assert.equal((await userinfo(leaving.accessToken)).status, 200);
    assert.equal((await userinfo(leaving.accessToken)).status, 200);
    await t.db.kysely.deleteFrom('users').where('email', '=', 'leaving@acme.test').execute();
    assert.equal((await userinfo(leaving.accessToken)).status, 401);
  });
});
