import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { DEVICE_CODE_TTL_S } from '../../demo/server/routes/device';
import { createTestApp, sessionFor, tokenFor, type TestApp } from '../support/test-server';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function jwks() {
  return createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks' })).json());
}

describe('GET /policy/raw', () => {
  it('lists the policy definitions, internal ones hidden', async () => {
    const { accessToken } = await tokenFor(t.app, 'carol@globex.test');
    const response = await t.app.inject({
      method: 'GET',
      url: '/policy/raw?showinternal=false',
      headers: bearer(accessToken),
    });
    assert.equal(response.statusCode, 200);
    const names = response.json().map((p: { name: string }) => p.name);
    assert.deepEqual(names, [
      'Job_Read',
      'Job_Modify',
      'Query_Read',
      'Query_Admin',
      'Reports_Read',
      'Reports_Create',
      'Workflow_Read',
      'Workflow_Execute',
      'Team_Admin',
    ]);
    assert.deepEqual(response.json()[0], {
      name: 'Job_Read',
      description: 'Read jobs',
      scopes: ['Job_Read'],
    });
  });

  it('shows internal ones only to owners who ask', async () => {
    const carol = await tokenFor(t.app, 'carol@globex.test');
    const ada = await tokenFor(t.app, 'ada@acme.test');
    const count = async (token: string, show: string) =>
      (
        await t.app.inject({ method: 'GET', url: `/policy/raw?showinternal=${show}`, headers: bearer(token) })
      ).json().length;
    assert.equal(await count(carol.accessToken, 'true'), 9);
    assert.equal(await count(ada.accessToken, 'true'), 11);
    assert.equal(await count(ada.accessToken, 'false'), 9);
    assert.equal(
      (
        await t.app.inject({
          method: 'GET',
          url: '/policy/raw?showinternal=maybe',
          headers: bearer(ada.accessToken),
        })
      ).statusCode,
      400,
    );
    assert.equal((await t.app.inject({ method: 'GET', url: '/policy/raw' })).statusCode, 401);
  });
});

describe('POST /home/token', () => {
  async function post(email: string, scopes: string[], accept = 'text/html') {
    const session = await sessionFor(t.app, email);
    const form = new URLSearchParams({ __RequestVerificationToken: session.xsrf });
    for (const scope of scopes) form.append('scope', scope);
    return t.app.inject({
      method: 'POST',
      url: '/home/token',
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded', accept },
      payload: form.toString(),
    });
  }

  it('issues an access token with exactly the chosen scopes and an id token, in the fragment', async () => {
    const response = await post('ada@acme.test', ['Job_Read', 'Reports_Create']);
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers['referrer-policy'], 'no-referrer');
    assert.equal(response.headers['cache-control'], 'no-store');
    const location = new URL(String(response.headers.location), 'http://x');
    assert.equal(location.pathname, '/manage/dev/success');
    const fragment = new URLSearchParams(location.hash.slice(1));
    const { payload } = await jwtVerify(fragment.get('access_token')!, await jwks(), {
      audience: 'acct-api',
    });
    assert.equal(payload.scope, 'Job_Read Reports_Create');
    const id = await jwtVerify(fragment.get('id_token')!, await jwks(), { audience: 'acct-portal' });
    assert.equal(id.payload.email, 'ada@acme.test');
  });

  it('refuses scopes the user may not have, unknown scopes and none', async () => {
    const forbidden = await post('carol@globex.test', ['Job_Read', 'Team_Admin']);
    assert.equal(forbidden.headers.location, '/manage/dev?Error=ScopeNotAllowed');
    const api = await post('carol@globex.test', ['Team_Admin'], 'application/json');
    assert.equal(api.statusCode, 400);
    assert.match(api.json().message, /Team_Admin/);
    assert.equal((await post('carol@globex.test', ['Nope'], 'application/json')).statusCode, 400);
    assert.equal((await post('carol@globex.test', [], 'application/json')).statusCode, 400);
  });

  it('needs a session and the anti-forgery field', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/home/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      payload: 'scope=Job_Read',
    });
    assert.equal(anonymous.statusCode, 401);
    const session = await sessionFor(t.app, 'ada@acme.test');
    const forged = await t.app.inject({
      method: 'POST',
      url: '/home/token',
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'scope=Job_Read',
    });
    assert.equal(forged.statusCode, 403);
  });
});

describe('QR code login (device codes)', () => {
  async function generate(token: string) {
    return t.app.inject({ method: 'POST', url: '/api/DeviceCode/generate', headers: bearer(token) });
  }
  function exchange(deviceCode: string, clientId = 'acct-mobile') {
    return t.app.inject({
      method: 'POST',
      url: '/connect/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: deviceCode,
        client_id: clientId,
      }).toString(),
    });
  }

  it("generates a device authorization and exchanges it once for the user's tokens", async () => {
    const ada = await tokenFor(t.app, 'ada@acme.test');
    const generated = await generate(ada.accessToken);
    assert.equal(generated.statusCode, 200);
    const body = generated.json();
    assert.match(body.device_code, /^[A-Za-z0-9_-]{43}$/);
    assert.match(body.user_code, /^[A-Z]{4}-[A-Z]{4}$/);
    assert.equal(body.expires_in, DEVICE_CODE_TTL_S);
    assert.equal(body.interval, 5);
    const stored = await t.db.kysely.selectFrom('device_codes').select('code_hash').execute();
    assert.ok(stored.every((row) => row.code_hash !== body.device_code));

    assert.equal((await exchange(body.device_code, 'someone')).json().error, 'invalid_client');
    const tokens = await exchange(body.device_code);
    assert.equal(tokens.statusCode, 200);
    const info = await t.app.inject({
      method: 'GET',
      url: '/connect/userinfo',
      headers: bearer(tokens.json().access_token),
    });
    assert.equal(info.json().email, 'ada@acme.test');
    const again = await exchange(body.device_code);
    assert.equal(again.statusCode, 400);
    assert.equal(again.json().error, 'invalid_grant');
  });

  it('refuses an expired code', async () => {
    const ada = await tokenFor(t.app, 'ada@acme.test');
    const { device_code } = (await generate(ada.accessToken)).json();
    t.clock.advance(DEVICE_CODE_TTL_S * 1000 + 1);
    try {
      assert.equal((await exchange(device_code)).json().error, 'expired_token');
    } finally {
      t.clock.offset = 0;
    }
  });

  it('lets parallel exchanges of one code succeed exactly once', async () => {
    const ada = await tokenFor(t.app, 'ada@acme.test');
    const { device_code } = (await generate(ada.accessToken)).json();
    const answers = await Promise.all(Array.from({ length: 10 }, () => exchange(device_code)));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, ...Array(9).fill(400)]);
  });

  it('limits how many codes a user makes', async () => {
    const carol = await tokenFor(t.app, 'carol@globex.test');
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await generate(carol.accessToken)).statusCode);
    assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/DeviceCode/generate' })).statusCode, 401);
  });
});
