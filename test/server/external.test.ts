import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { signInAtProvider } from '../support/idp';
import {
  createTestApp,
  sessionFor,
  tokenFor,
  type DirectSession,
  type TestApp,
} from '../support/test-server';

let t: TestApp;
before(async () => {
  t = await createTestApp({ LOGIN_ADDRESS_LIMIT: '10000' });
});
after(() => t.close());

const cookieOf = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((c) => c.name === name)?.value;

interface Started {
  authorize: string;
  browser: string;
}

async function start(
  kind: string,
  teamName: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<Started> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/account/${kind}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ teamName, ...fields }).toString(),
  });
  assert.equal(response.statusCode, 303, response.body);
  return { authorize: String(response.headers.location), browser: cookieOf(response, 'acct_oauth')! };
}

function callback(url: URL, browser: string, extraCookie = '') {
  return t.app.inject({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: { cookie: `acct_oauth=${browser}${extraCookie ? `; ${extraCookie}` : ''}` },
  });
}

async function roundTrip(
  kind: string,
  teamName: string,
  account: string,
  fields: Record<string, string> = {},
) {
  const started = await start(kind, teamName, fields);
  const back = await signInAtProvider(started.authorize, account, `${t.config.publicUrl}/account/callback/`);
  return { started, back, response: await callback(back, started.browser) };
}

describe('sign-in with a provider', () => {
  it('uses the code flow with PKCE, state and nonce, and passes max_age through', async () => {
    const { authorize } = await start('google', 'acme', { maxAge: '300' });
    const url = new URL(authorize);
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(url.searchParams.get('code_challenge'));
    assert.ok(url.searchParams.get('state'));
    assert.ok(url.searchParams.get('nonce'));
    assert.equal(url.searchParams.get('max_age'), '300');
    assert.equal(url.searchParams.get('redirect_uri'), `${t.config.publicUrl}/account/callback/google`);
  });

  it('signs ada in with Google and goes to the validated return URL', async () => {
    const { response } = await roundTrip('google', 'acme', 'ada', { returnUrl: '/manage/qr' });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/manage/qr');
    const session = cookieOf(response, 'acct_session');
    assert.ok(session);
    const check = await t.app.inject({
      method: 'POST',
      url: '/account/check',
      headers: { cookie: `acct_session=${session}`, origin: 'https://suite.example.test' },
    });
    assert.equal(check.json().authenticated, true);
  });

  it('never follows a hostile return URL', async () => {
    const { response } = await roundTrip('google', 'acme', 'ada', { returnUrl: '//evil.test/x' });
    assert.equal(response.headers.location, '/');
  });

  it('signs dan in to umbrella with Microsoft', async () => {
    const { response } = await roundTrip('azure', 'umbrella', 'dan');
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/');
    assert.ok(cookieOf(response, 'acct_session'));
  });

  it('sends each failure back to the sign-in screen with its Error code', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['google', 'acme', 'locked', 'UserLocked'],
      ['google', 'acme', 'stranger', 'ForbiddenSignup'],
      ['google', 'acme', 'ada-other', 'UserAlreadyExists'],
      ['azure', 'umbrella', 'eve', 'InvalidTenant'],
      ['azure', 'umbrella', 'ada', 'InvalidTenant'],
    ];
    for (const [kind, team, account, code] of cases) {
      const { response } = await roundTrip(kind, team, account);
      assert.equal(response.statusCode, 303, `${account}`);
      assert.equal(response.headers.location, `/login/${team}?Error=${code}`, `${kind} ${account}`);
      assert.equal(cookieOf(response, 'acct_session'), undefined);
    }
  });

  it('links a matching verified e-mail on first sign-in (Auth0 as ada), then recognises the identity', async () => {
    const first = await roundTrip('auth0', 'acme', 'ada');
    assert.equal(first.response.headers.location, '/');
    const linked = await t.db.kysely
      .selectFrom('external_accounts')
      .select('subject')
      .where('provider', '=', 'Auth0')
      .execute();
    assert.deepEqual(
      linked.map((r) => r.subject),
      ['auth0-ada'],
    );
    const again = await roundTrip('auth0', 'acme', 'ada');
    assert.equal(again.response.headers.location, '/');
  });

  it('refuses a tampered state, a replayed callback, another browser, and a wrong nonce', async () => {
    const { started, back } = await (async () => {
      const s = await start('google', 'acme');
      return {
        started: s,
        back: await signInAtProvider(s.authorize, 'ada', `${t.config.publicUrl}/account/callback/`),
      };
    })();
    const tampered = new URL(back);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`);
    assert.equal(
      (await callback(tampered, started.browser)).headers.location,
      '/login/team?Error=ProviderFailed',
    );
    assert.equal(
      (await callback(back, 'another-browser')).headers.location,
      '/login/team?Error=ProviderFailed',
    );
    const ok = await callback(back, started.browser);
    assert.equal(ok.headers.location, '/');
    const replay = await callback(back, started.browser);
    assert.equal(replay.headers.location, '/login/team?Error=ProviderFailed');
    assert.equal(cookieOf(replay, 'acct_session'), undefined);

    const second = await start('google', 'acme');
    const secondBack = await signInAtProvider(
      second.authorize,
      'ada',
      `${t.config.publicUrl}/account/callback/`,
    );
    await t.db.kysely
      .updateTable('oauth_flows')
      .set({ nonce: 'not-the-nonce-we-sent' })
      .where('used_at', 'is', null)
      .execute();
    const wrongNonce = await callback(secondBack, second.browser);
    assert.equal(wrongNonce.headers.location, '/login/acme?Error=ProviderFailed');
    assert.equal(cookieOf(wrongNonce, 'acct_session'), undefined);
  });

  it('refuses providers the team does not have, and unknown providers', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/account/google',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'teamName=globex',
    });
    assert.equal(response.statusCode, 400);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/account/facebook',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'teamName=acme',
    });
    assert.equal(unknown.statusCode, 404);
  });

  it('asks a cookie-bearing form post for the anti-forgery field', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/account/google',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'XSRF-TOKEN=a.b.c' },
      payload: 'teamName=acme',
    });
    assert.equal(response.statusCode, 403);
  });
});

describe('connecting and disconnecting accounts', () => {
  async function link(session: DirectSession, provider: string, account: string) {
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/external/${provider}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
      payload: new URLSearchParams({ __RequestVerificationToken: session.xsrf }).toString(),
    });
    assert.equal(started.statusCode, 303, started.body);
    const browser = cookieOf(started, 'acct_oauth')!;
    const back = await signInAtProvider(
      String(started.headers.location),
      account,
      `${t.config.publicUrl}/account/callback/`,
    );
    return callback(back, browser, `acct_session=${session.token}`);
  }

  it('connects Microsoft for ada, then disconnects it', async () => {
    const session = await tokenFor(t.app, 'ada@acme.test');
    const linked = await link(session, 'AzureAD', 'ada');
    assert.equal(linked.headers.location, '/manage');
    const options = await t.app.inject({
      method: 'GET',
      url: '/api/user/password',
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    assert.ok(
      options.json().externalAccounts.some((a: { providerName: string }) => a.providerName === 'AzureAD'),
    );
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/user/password/AzureAD',
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    assert.equal(removed.statusCode, 200);
    const again = await t.app.inject({
      method: 'DELETE',
      url: '/api/user/password/AzureAD',
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    assert.equal(again.statusCode, 404);
  });

  it('will not connect an identity that belongs to someone else', async () => {
    const session = await sessionFor(t.app, 'ada@acme.test');
    const response = await link(session, 'Google', 'bob');
    assert.equal(response.headers.location, '/manage?Error=UserAlreadyExists');
  });

  it('never removes the only sign-in option', async () => {
    const bob = await tokenFor(t.app, 'bob@acme.test');
    const response = await t.app.inject({
      method: 'DELETE',
      url: '/api/user/password/Google',
      headers: { authorization: `Bearer ${bob.accessToken}` },
    });
    assert.equal(response.statusCode, 409);
    assert.deepEqual(response.json(), { message: 'cannot remove the only sign-in option' });
  });

  it('leaves at least one sign-in method when two unlinks race', async () => {
    const dan = await tokenFor(t.app, 'dan@umbrella.test');
    const danRow = await t.db.kysely
      .selectFrom('users')
      .select(['id', 'team_id'])
      .where('email', '=', 'dan@umbrella.test')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('external_accounts')
      .values({
        id: randomUUID(),
        user_id: danRow.id,
        team_id: danRow.team_id,
        provider: 'Google',
        subject: 'google-dan',
        user_name: 'dan@umbrella.test',
        created_at: Date.now(),
      })
      .execute();
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        ['AzureAD', 'Google'].map((provider) =>
          t.app.inject({
            method: 'DELETE',
            url: `/api/user/password/${provider}`,
            headers: { authorization: `Bearer ${dan.accessToken}` },
          }),
        ),
      );
      const remaining = await t.db.kysely
        .selectFrom('external_accounts')
        .select('provider')
        .where('user_id', '=', danRow.id)
        .execute();
      assert.equal(remaining.length, 1, `round ${round}: ${answers.map((a) => a.statusCode)}`);
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409]);
      // Put the removed one back for the next round.
      const gone = ['AzureAD', 'Google'].find((p) => p !== remaining[0]!.provider)!;
      await t.db.kysely
        .insertInto('external_accounts')
        .values({
          id: randomUUID(),
          user_id: danRow.id,
          team_id: danRow.team_id,
          provider: gone,
          subject: `${gone}-dan`,
          user_name: 'dan@umbrella.test',
          created_at: Date.now(),
        })
        .execute();
    }
  });
});
