import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { providerAnswer, signInAtProvider } from '../support/idp';
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

describe('starting a provider sign-in in two steps (an embedding page with its own CSP)', () => {
  const SUITE = 'https://suite.example.test';

  async function ticketFor(kind: string, body: Record<string, string>, headers: Record<string, string> = {}) {
    return t.app.inject({
      method: 'POST',
      url: `/account/${kind}/start`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });
  }

  /** Both steps: the call's answer names an issuer address; navigating there starts the round trip. */
  async function startInSteps(kind: string, body: Record<string, string>): Promise<Started> {
    const answer = await ticketFor(kind, body);
    assert.equal(answer.statusCode, 200, answer.body);
    const location = new URL(answer.json<{ location: string }>().location);
    assert.equal(location.origin, new URL(t.config.publicUrl).origin);
    const go = await t.app.inject({ method: 'GET', url: `${location.pathname}${location.search}` });
    assert.equal(go.statusCode, 303, go.body);
    return { authorize: String(go.headers.location), browser: cookieOf(go, 'acct_oauth')! };
  }

  it('answers an issuer address that goes on to the provider with the flow cookie, then signs in', async () => {
    const started = await startInSteps('google', { teamName: 'acme', returnUrl: '/manage/qr', maxAge: '60' });
    const authorize = new URL(started.authorize);
    assert.equal(authorize.searchParams.get('max_age'), '60');
    assert.ok(started.browser);
    const back = await signInAtProvider(started.authorize, 'ada', `${t.config.publicUrl}/account/callback/`);
    const response = await callback(back, started.browser);
    assert.equal(response.headers.location, '/manage/qr');
    assert.ok(cookieOf(response, 'acct_session'));
  });

  it('returns to a page on a trusted origin, and never to another', async () => {
    const trusted = await startInSteps('google', { teamName: 'acme', returnUrl: `${SUITE}/app?x=1` });
    const back = await signInAtProvider(trusted.authorize, 'ada', `${t.config.publicUrl}/account/callback/`);
    assert.equal((await callback(back, trusted.browser)).headers.location, `${SUITE}/app?x=1`);
    for (const returnUrl of ['https://evil.test/app', `${SUITE}//evil.test/x`, 'javascript:alert(1)']) {
      const other = await startInSteps('google', { teamName: 'acme', returnUrl });
      const again = await signInAtProvider(other.authorize, 'ada', `${t.config.publicUrl}/account/callback/`);
      assert.equal((await callback(again, other.browser)).headers.location, '/', returnUrl);
    }
  });

  it('keeps the anti-forgery rule on the call: cookies need the token or a trusted Origin', async () => {
    const forged = await ticketFor('google', { teamName: 'acme' }, { cookie: 'XSRF-TOKEN=a.b.c' });
    assert.equal(forged.statusCode, 403);
    const partner = await ticketFor(
      'google',
      { teamName: 'acme' },
      { cookie: 'XSRF-TOKEN=a.b.c', origin: SUITE },
    );
    assert.equal(partner.statusCode, 200);
  });

  it('refuses a provider the team does not offer, an unknown provider, and a form body', async () => {
    assert.equal((await ticketFor('google', { teamName: 'globex' })).statusCode, 400);
    assert.equal((await ticketFor('google', { teamName: 'nope' })).statusCode, 400);
    assert.equal((await ticketFor('facebook', { teamName: 'acme' })).statusCode, 404);
    const form = await t.app.inject({
      method: 'POST',
      url: '/account/google/start',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'teamName=acme',
    });
    assert.equal(form.statusCode, 415);
  });

  it('sends a forged, expired or misused ticket back to sign-in with ProviderFailed', async () => {
    const answer = await ticketFor('google', { teamName: 'acme', returnUrl: '/manage/qr' });
    const location = new URL(answer.json<{ location: string }>().location);
    const ticket = location.searchParams.get('ticket')!;
    const go = (kind: string, value: string) =>
      t.app.inject({ method: 'GET', url: `/account/${kind}/start?ticket=${encodeURIComponent(value)}` });

    const tampered = await go('google', `${ticket.slice(0, -2)}${ticket.endsWith('A') ? 'B' : 'A'}`);
    assert.equal(tampered.statusCode, 303);
    assert.equal(tampered.headers.location, '/login/team?Error=ProviderFailed');
    assert.equal(cookieOf(tampered, 'acct_oauth') ?? '', '');

    const otherKind = await go('azure', ticket);
    assert.equal(otherKind.headers.location, '/login/team?Error=ProviderFailed');

    t.clock.advance(121_000);
    try {
      const expired = await go('google', ticket);
      assert.equal(expired.headers.location, '/login/team?Error=ProviderFailed');
    } finally {
      t.clock.advance(-121_000);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/account/google/start' })).statusCode, 400);
  });

  it('keeps the ReturnUrl when the round trip fails', async () => {
    const started = await startInSteps('google', { teamName: 'acme', returnUrl: '/manage/qr' });
    const back = await signInAtProvider(
      started.authorize,
      'stranger',
      `${t.config.publicUrl}/account/callback/`,
    );
    const response = await callback(back, started.browser);
    assert.equal(response.headers.location, '/login/acme?Error=ForbiddenSignup&ReturnUrl=%2Fmanage%2Fqr');
    const form = await roundTrip('google', 'acme', 'locked', { returnUrl: '/manage/dev' });
    assert.equal(form.response.headers.location, '/login/acme?Error=UserLocked&ReturnUrl=%2Fmanage%2Fdev');
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

describe('Sign in with Apple (its stand-in answers by form_post)', () => {
  async function appleRoundTrip(account: string, extraForm: Record<string, string> = {}, cookie = '') {
    const started = await start('apple', 'acme');
    const authorize = new URL(started.authorize);
    assert.equal(authorize.searchParams.get('response_mode'), 'form_post');
    assert.equal(authorize.searchParams.get('scope'), 'openid name email');
    const answer = await providerAnswer(
      started.authorize,
      account,
      `${t.config.publicUrl}/account/callback/`,
    );
    assert.ok(answer.form, 'a form_post answer');
    assert.equal(answer.url.pathname, '/account/callback/apple');
    for (const [key, value] of Object.entries(extraForm)) answer.form.set(key, value);
    return t.app.inject({
      method: 'POST',
      url: answer.url.pathname,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        // A cross-site POST from the provider's page: cookies, but no anti-forgery token.
        cookie: `acct_oauth=${started.browser}${cookie ? `; ${cookie}` : ''}`,
        origin: new URL(started.authorize).origin,
      },
      payload: answer.form.toString(),
    });
  }

  it('is offered to acme and signs ada in (linked by her verified e-mail, a string "true" at Apple)', async () => {
    const team = (await t.app.inject({ method: 'GET', url: '/api/team/public/acme' })).json();
    assert.deepEqual(team.appleOptions, {});
    const response = await appleRoundTrip('ada');
    assert.equal(response.statusCode, 303, response.body);
    assert.equal(response.headers.location, '/');
    assert.ok(cookieOf(response, 'acct_session'));
    const again = await appleRoundTrip('ada');
    assert.equal(again.statusCode, 303);
    assert.ok(cookieOf(again, 'acct_session'), 'the linked identity signs in');
  });

  it('takes only the browser that started the round trip, once', async () => {
    const started = await start('apple', 'acme');
    const answer = await providerAnswer(started.authorize, 'ada', `${t.config.publicUrl}/account/callback/`);
    const post = (browser: string) =>
      t.app.inject({
        method: 'POST',
        url: answer.url.pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `acct_oauth=${browser}` },
        payload: answer.form!.toString(),
      });
    const foreign = await post('someone-else');
    assert.equal(foreign.headers.location, '/login/team?Error=ProviderFailed');
    assert.equal(cookieOf(foreign, 'acct_session'), undefined);
    assert.equal((await post(started.browser)).statusCode, 303);
    const replay = await post(started.browser);
    assert.equal(replay.headers.location, '/login/team?Error=ProviderFailed');
  });

  it('refuses an identity it cannot place (ForbiddenSignup), and form posts for other providers (404)', async () => {
    const response = await appleRoundTrip('stranger');
    assert.equal(response.headers.location, '/login/acme?Error=ForbiddenSignup');
    const google = await t.app.inject({
      method: 'POST',
      url: '/account/callback/google',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'code=x&state=y',
    });
    assert.equal(google.statusCode, 404);
  });
});
