import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { DEMO_API_CLIENT } from '../../demo/server/db/seed';
import { machineAppRow } from '../../demo/server/db/team-apps';
import { sha256 } from '../../demo/server/lib/crypto';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
let who: Callers;
before(async () => {
  t = await createTestApp();
  who = await callers(t);
});
after(() => t.close());

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/connect/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function clientToken(): Promise<string> {
  const response = await form(
    { grant_type: 'client_credentials', scope: 'team.storage' },
    {
      authorization: basic(DEMO_API_CLIENT.id, DEMO_API_CLIENT.secret),
    },
  );
  assert.equal(response.statusCode, 200, response.body);
  return response.json().access_token as string;
}

describe('POST /connect/token, client credentials (RFC 6749 §4.4)', () => {
  it('gives a team API client a token for its team and scope, by HTTP Basic or the form', async () => {
    const byBasic = await form(
      { grant_type: 'client_credentials' },
      {
        authorization: basic(DEMO_API_CLIENT.id, DEMO_API_CLIENT.secret),
      },
    );
    assert.equal(byBasic.statusCode, 200, byBasic.body);
    const body = byBasic.json();
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.scope, 'team.storage');
    assert.equal(body.id_token, undefined);
    const claims = decodeJwt(body.access_token as string);
    const acme = await t.db.kysely
      .selectFrom('teams')
      .select('id')
      .where('name', '=', 'acme')
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [claims.sub, claims.client_id, claims.team_id, claims.scope],
      [DEMO_API_CLIENT.id, DEMO_API_CLIENT.id, acme.id, 'team.storage'],
    );
    const byForm = await form({
      grant_type: 'client_credentials',
      client_id: DEMO_API_CLIENT.id,
      client_secret: DEMO_API_CLIENT.secret,
    });
    assert.equal(byForm.statusCode, 200, byForm.body);
  });

  it('refuses a wrong secret or an unknown client (401 invalid_client) and a scope it may not have (400)', async () => {
    const wrong = await form(
      { grant_type: 'client_credentials' },
      { authorization: basic(DEMO_API_CLIENT.id, 'nope') },
    );
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().error, 'invalid_client');
    assert.match(String(wrong.headers['www-authenticate']), /^Basic/);
    const unknown = await form({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' });
    assert.equal(unknown.statusCode, 401);
    assert.equal(unknown.json().error, 'invalid_client');
    const none = await form({ grant_type: 'client_credentials' });
    assert.equal(none.statusCode, 401);
    const scope = await form({
      grant_type: 'client_credentials',
      client_id: DEMO_API_CLIENT.id,
      client_secret: DEMO_API_CLIENT.secret,
      scope: 'team.storage openid',
    });
    assert.equal(scope.statusCode, 400);
    assert.equal(scope.json().error, 'invalid_scope');
  });

  it("is announced by discovery, and a client's token is no member's token", async () => {
    const doc = (await api(t, 'GET', '/.well-known/openid-configuration')).json();
    assert.ok(doc.grant_types_supported.includes('client_credentials'));
    const token = await clientToken();
    expectError(await api(t, 'GET', '/connect/userinfo', token), 401);
    expectError(await api(t, 'GET', '/api/team', token), 401);
  });
});

describe('PUT /api/team/storage', () => {
  const put = (token: string | undefined, body: unknown) => api(t, 'PUT', '/api/team/storage', token, body);

  it("refuses without a token (401), and members' and admins' tokens for their scope (403)", async () => {
    expectError(await put(undefined, { usedBytes: 1 }), 401);
    expectError(await put('garbage', { usedBytes: 1 }), 401);
    for (const token of [who.member, who.admin, who.owner, who.otherAdmin]) {
      const response = await put(token, { usedBytes: 1 });
      expectError(response, 403, 'insufficientScope');
      assert.match(String(response.headers['www-authenticate']), /insufficient_scope/);
    }
  });

  it("stores the usage a suite app reports for the client's team: the team screen shows it", async () => {
    const response = await put(await clientToken(), { usedBytes: 42_000_000_000 });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { usedBytes: 42_000_000_000, limitBytes: 100_000_000_000 });
    assert.deepEqual((await api(t, 'GET', '/api/team', who.owner)).json().storage, {
      usedBytes: 42_000_000_000,
      limitBytes: 100_000_000_000,
    });
    const globex = (await api(t, 'GET', '/api/team', who.otherAdmin)).json().storage;
    assert.equal(globex.usedBytes, 12_000_000_000, 'another team is untouched');
    for (const usedBytes of [-1, 1.5, '10', Number.MAX_SAFE_INTEGER + 2])
      expectError(await put(await clientToken(), { usedBytes }), 400);
  });

  it('refuses the token of a client that no longer exists (401) or lacks the scope (403)', async () => {
    const token = await clientToken();
    const acme = await t.db.kysely
      .selectFrom('teams')
      .select('id')
      .where('name', '=', 'acme')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('team_apps')
      .values(
        machineAppRow(
          {
            client_id: 'reader',
            team_id: acme.id,
            name: 'Reader',
            secret_hash: sha256('s3cret'),
            scopes: 'team.read',
          },
          0,
        ),
      )
      .execute();
    const reader = await form({
      grant_type: 'client_credentials',
      client_id: 'reader',
      client_secret: 's3cret',
    });
    expectError(await put(reader.json().access_token as string, { usedBytes: 1 }), 403, 'insufficientScope');
    const demo = await t.db.kysely
      .selectFrom('team_apps')
      .selectAll()
      .where('client_id', '=', DEMO_API_CLIENT.id)
      .executeTakeFirstOrThrow();
    // A disabled machine app's tokens stop, and it gets no new one; so do a deleted one's.
    const apps = () => t.db.kysely.updateTable('team_apps').where('client_id', '=', DEMO_API_CLIENT.id);
    await apps().set({ disabled: 1 }).execute();
    expectError(await put(token, { usedBytes: 1 }), 401);
    const refused = await form({
      grant_type: 'client_credentials',
      client_id: DEMO_API_CLIENT.id,
      client_secret: DEMO_API_CLIENT.secret,
    });
    assert.equal(refused.statusCode, 401);
    await apps().set({ disabled: 0 }).execute();
    assert.equal((await put(token, { usedBytes: 1 })).statusCode, 200);
    await t.db.kysely.deleteFrom('team_apps').where('client_id', '=', DEMO_API_CLIENT.id).execute();
    expectError(await put(token, { usedBytes: 1 }), 401);
    await t.db.kysely.insertInto('team_apps').values(demo).execute();
  });
});

describe('GET /api/team/audit', () => {
  it('refuses without a token (401) and a member (403); another team sees only its own', async () => {
    expectError(await api(t, 'GET', '/api/team/audit'), 401);
    expectError(await api(t, 'GET', '/api/team/audit', who.member), 403, 'notAdmin');
    await api(t, 'POST', '/api/team/groups', who.owner, { name: 'Audited' });
    const theirs = (await api(t, 'GET', '/api/team/audit', who.otherAdmin)).json().events as Array<{
      target: string;
    }>;
    assert.ok(!theirs.some((e) => e.target === 'Audited'));
  });

  it('records who did what to whom and when, newest first', async () => {
    const started = Date.now() - 1000;
    await api(t, 'POST', '/api/team/invitations', who.admin, {
      email: 'audit@example.test',
      permissions: ['SPOKE'],
    });
    await api(t, 'PATCH', '/api/team/login-options', who.owner, { auth0: false });
    await api(t, 'PATCH', '/api/team/login-options', who.owner, { auth0: true });
    await api(t, 'PUT', '/api/team/seat-limit', who.owner, { limit: 40 });
    const response = await api(t, 'GET', '/api/team/audit?limit=4', who.admin);
    assert.equal(response.statusCode, 200, response.body);
    const events = response.json().events as Array<{
      at: string;
      actor: { name: string; email: string } | null;
      action: string;
      target: string;
      detail: Record<string, unknown>;
    }>;
    assert.deepEqual(
      events.map((e) => [e.action, e.actor?.email, e.target]),
      [
        ['team.seatLimit', 'ada@acme.test', '40'],
        ['team.loginOptions', 'ada@acme.test', 'auth0'],
        ['team.loginOptions', 'ada@acme.test', 'auth0'],
        ['member.invited', 'alan@acme.test', 'audit@example.test'],
      ],
    );
    assert.deepEqual(events[1]!.detail, { auth0: true });
    assert.deepEqual(events[3]!.detail, { permissions: ['SPOKE'] });
    assert.ok(Date.parse(events[0]!.at) >= started);
    const defaults = (await api(t, 'GET', '/api/team/audit', who.admin)).json().events;
    assert.ok(defaults.length <= 10);
    for (const limit of ['0', '101', 'x'])
      expectError(await api(t, 'GET', `/api/team/audit?limit=${limit}`, who.admin), 400, 'invalidLimit');
  });

  it('records a storage report with no member as the actor', async () => {
    assert.equal(
      (await api(t, 'PUT', '/api/team/storage', await clientToken(), { usedBytes: 7 })).statusCode,
      200,
    );
    const [latest] = (await api(t, 'GET', '/api/team/audit?limit=1', who.owner)).json().events;
    assert.deepEqual(
      [latest.action, latest.actor, latest.target],
      ['team.storage', null, DEMO_API_CLIENT.id],
    );
  });
});

describe('GET /api/search', () => {
  it('finds members for admins, nothing for members, 401 without a token', async () => {
    expectError(await api(t, 'GET', '/api/search?q=bob'), 401);
    const admin = await api(t, 'GET', '/api/search?q=bob', who.admin);
    assert.equal(admin.statusCode, 200, admin.body);
    assert.deepEqual(
      admin.json().members.map((m: { email: string }) => m.email),
      ['bob@acme.test'],
    );
    assert.deepEqual((await api(t, 'GET', '/api/search?q=bob', who.member)).json(), { members: [] });
    assert.deepEqual((await api(t, 'GET', '/api/search?q=bob', who.otherAdmin)).json(), { members: [] });
    assert.equal((await api(t, 'GET', '/api/search?q=a', who.owner)).json().members.length <= 10, true);
    expectError(await api(t, 'GET', '/api/search', who.owner), 400);
    expectError(await api(t, 'GET', `/api/search?q=${'x'.repeat(101)}`, who.owner), 400);
  });
});
