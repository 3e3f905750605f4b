import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { TestSmtp } from '../support/smtp';
import { createTestApp, exchangeSession, tokenFor, type TestApp } from '../support/test-server';
import { bearer, codeFor, cookiesFrom, login, makeUser, withCookies } from '../support/two-step';
import { SoftAuthenticator } from '../support/webauthn';

const SUITE = 'https://suite.example.test';

let t: TestApp;
let smtp: TestSmtp;
let origin: string;
before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url, LOGIN_ADDRESS_LIMIT: '1000', CORS_ORIGINS: SUITE });
  origin = new URL(t.config.publicUrl).origin;
});
after(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.db.kysely.deleteFrom('rate_limits').execute();
  await t.db.kysely.deleteFrom('login_failures').execute();
});

let serial = 0;
async function member(prefix = 'pk', password: string | null | undefined = undefined) {
  const email = `${prefix}${++serial}@acme.test`;
  const userId = password === null ? await makeUser(t, email, 'acme', null) : await makeUser(t, email);
  const { accessToken } = await tokenFor(t.app, email, 'acme');
  return { email, userId, accessToken };
}

/** Register a passkey for the user through the real ceremony; the answer of the final call. */
async function register(
  accessToken: string,
  authenticator: SoftAuthenticator,
  name = 'My laptop',
  from = origin,
) {
  const options = await bearer(t, accessToken, 'POST', '/api/user/passkeys/options');
  assert.equal(options.statusCode, 200, options.body);
  const response = authenticator.create(options.json(), from);
  return bearer(t, accessToken, 'POST', '/api/user/passkeys', { name, response });
}

/** Sign-in options for a browser: its binding cookie and an anonymous anti-forgery token. */
async function signInOptions() {
  const options = await t.app.inject({ method: 'POST', url: '/account/passkey/options' });
  assert.equal(options.statusCode, 200, options.body);
  const browser = options.cookies.find((c) => c.name === 'acct_webauthn')!;
  assert.equal(browser.httpOnly, true);
  const xsrf = t.app.services.xsrf.anonymous();
  return {
    options: options.json() as { challenge: string; rpId: string },
    jar: { cookie: `acct_webauthn=${browser.value}; XSRF-TOKEN=${xsrf}`, xsrf },
  };
}

async function signIn(authenticator: SoftAuthenticator, teamName?: string) {
  const { options, jar } = await signInOptions();
  const response = authenticator.get(options, origin);
  return withCookies(t, jar, '/account/passkey', teamName ? { response, teamName } : { response });
}

/** A member with a passkey and a confirmed authenticator app (so a password sign-in asks a second step). */
async function memberWithPasskeyAndApp() {
  const who = await member();
  const authenticator = new SoftAuthenticator();
  await register(who.accessToken, authenticator);
  const key = (await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp')).json();
  const confirmed = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp/confirm', {
    code: codeFor(t, key.secret as string),
  });
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  return { who, authenticator, secret: key.secret as string };
}

/** Sign-in options' cookies together with a pending sign-in's (its anti-forgery token: the options'). */
function withPending(pending: { cookie: string }, jar: { cookie: string; xsrf: string }) {
  return { cookie: `${jar.cookie}; ${pending.cookie.replace(/XSRF-TOKEN=[^;]*;?\s*/, '')}`, xsrf: jar.xsrf };
}

/** The portal tokens of a sign-in answer's session. */
async function tokensOf(answer: { cookies: Array<{ name: string; value: string }> }) {
  const jar = cookiesFrom(answer as Parameters<typeof cookiesFrom>[0]);
  const check = await withCookies(t, jar, '/account/check');
  const token = await exchangeSession(t.app, jar, check.json().session as string);
  assert.equal(token.statusCode, 200, token.body);
  return decodeJwt(token.json().id_token as string);
}

describe('passkey registration', () => {
  it('adds a named passkey, lists it with created and last used, and mails a notice', async () => {
    const who = await member();
    const added = await register(who.accessToken, new SoftAuthenticator(), '  Work laptop ');
    assert.equal(added.statusCode, 201, added.body);
    const passkey = added.json();
    assert.equal(passkey.name, 'Work laptop');
    assert.equal(passkey.lastUsedAt, null);
    assert.equal(passkey.synced, false);
    const list = await bearer(t, who.accessToken, 'GET', '/api/user/passkeys');
    assert.deepEqual(list.json(), { passkeys: [passkey] });
    const mail = await smtp.next(who.email, /passkey was added/i);
    assert.match(mail.text, /Work laptop/);
    const status = await bearer(t, who.accessToken, 'GET', '/api/user/two-step');
    assert.equal(status.json().passkeys, 1);
  });

  it('gives options for the issuer host as relying party, excluding the passkeys the user has', async () => {
    const who = await member();
    const authenticator = new SoftAuthenticator();
    assert.equal((await register(who.accessToken, authenticator)).statusCode, 201);
    const options = (await bearer(t, who.accessToken, 'POST', '/api/user/passkeys/options')).json();
    assert.equal(options.rp.id, new URL(t.config.publicUrl).hostname);
    assert.equal(options.authenticatorSelection.residentKey, 'required');
    assert.deepEqual(
      options.excludeCredentials.map((c: { id: string }) => c.id),
      [authenticator.id],
    );
    // The same authenticator again: refused.
    const again = await bearer(t, who.accessToken, 'POST', '/api/user/passkeys', {
      name: 'again',
      response: authenticator.create(options, origin),
    });
    assert.equal(again.statusCode, 409);
  });

  it('accepts a CORS_ORIGINS origin (Related Origin Requests), refuses any other', async () => {
    const who = await member();
    assert.equal((await register(who.accessToken, new SoftAuthenticator(), 'suite', SUITE)).statusCode, 201);
    const foreign = await register(who.accessToken, new SoftAuthenticator(), 'evil', 'https://evil.example');
    assert.equal(foreign.statusCode, 400);
    assert.equal(foreign.json().code, 'passkeyRefused');
    const known = (await t.app.inject({ method: 'GET', url: '/.well-known/webauthn' })).json();
    assert.deepEqual(known, { origins: [origin, SUITE] });
  });

  it('refuses a reused challenge, an expired one and another user’s', async () => {
    const who = await member();
    const options = (await bearer(t, who.accessToken, 'POST', '/api/user/passkeys/options')).json();
    const first = new SoftAuthenticator();
    const ok = await bearer(t, who.accessToken, 'POST', '/api/user/passkeys', {
      name: 'one',
      response: first.create(options, origin),
    });
    assert.equal(ok.statusCode, 201, ok.body);
    const reuse = await bearer(t, who.accessToken, 'POST', '/api/user/passkeys', {
      name: 'two',
      response: new SoftAuthenticator().create(options, origin),
    });
    assert.equal(reuse.statusCode, 400, 'a challenge works once');

    const late = (await bearer(t, who.accessToken, 'POST', '/api/user/passkeys/options')).json();
    t.clock.advance(5 * 60_000 + 1000);
    const expired = await bearer(t, who.accessToken, 'POST', '/api/user/passkeys', {
      name: 'late',
      response: new SoftAuthenticator().create(late, origin),
    });
    assert.equal(expired.statusCode, 400, 'five minutes');

    const other = await member();
    const theirs = (await bearer(t, other.accessToken, 'POST', '/api/user/passkeys/options')).json();
    const stolen = await bearer(t, who.accessToken, 'POST', '/api/user/passkeys', {
      name: 'stolen',
      response: new SoftAuthenticator().create(theirs, origin),
    });
    assert.equal(stolen.statusCode, 400, 'bound to the session that asked');
  });

  it('refuses an authenticator that did not verify the user', async () => {
    const who = await member();
    const added = await register(who.accessToken, new SoftAuthenticator({ userVerified: false }));
    assert.equal(added.statusCode, 400);
  });
});

describe('passkey sign-in', () => {
  it('signs in with a discoverable passkey: session, amr hwk mfa, last used recorded', async () => {
    const who = await member();
    const authenticator = new SoftAuthenticator();
    assert.equal((await register(who.accessToken, authenticator)).statusCode, 201);
    const answer = await signIn(authenticator);
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(answer.json(), { authenticated: true });
    const idToken = await tokensOf(answer);
    assert.equal(idToken.sub, who.userId);
    assert.deepEqual(idToken.amr, ['hwk', 'mfa']);
    const [passkey] = (await bearer(t, who.accessToken, 'GET', '/api/user/passkeys')).json().passkeys;
    assert.ok(passkey.lastUsedAt);

    // A synced passkey says swk.
    const synced = new SoftAuthenticator({ synced: true });
    assert.equal((await register(who.accessToken, synced)).statusCode, 201);
    assert.deepEqual((await tokensOf(await signIn(synced))).amr, ['swk', 'mfa']);
  });

  it('refuses a reused challenge and an expired one', async () => {
    const who = await member();
    const authenticator = new SoftAuthenticator();
    await register(who.accessToken, authenticator);
    const { options, jar } = await signInOptions();
    const first = authenticator.get(options, origin);
    assert.equal((await withCookies(t, jar, '/account/passkey', { response: first })).statusCode, 200);
    const replay = await withCookies(t, jar, '/account/passkey', { response: first });
    assert.equal(replay.statusCode, 401);
    assert.equal(replay.json().code, 'passkeyRefused');
    const fresh = await withCookies(t, jar, '/account/passkey', {
      response: authenticator.get(options, origin),
    });
    assert.equal(fresh.statusCode, 401, 'the challenge is used up, whatever the signature');

    const later = await signInOptions();
    t.clock.advance(5 * 60_000 + 1000);
    const expired = await withCookies(t, later.jar, '/account/passkey', {
      response: authenticator.get(later.options, origin),
    });
    assert.equal(expired.statusCode, 401);
  });

  it('binds the challenge to the browser that asked for it', async () => {
    const who = await member();
    const authenticator = new SoftAuthenticator();
    await register(who.accessToken, authenticator);
    const mine = await signInOptions();
    const theirs = await signInOptions();
    const crossed = await withCookies(t, theirs.jar, '/account/passkey', {
      response: authenticator.get(mine.options, origin),
    });
    assert.equal(crossed.statusCode, 401);
    const none = await t.app.inject({
      method: 'POST',
      url: '/account/passkey',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ response: authenticator.get(mine.options, origin) }),
    });
    assert.equal(none.statusCode, 401);
  });

  it('refuses a counter that went back (a cloned authenticator)', async () => {
    const who = await member();
    const authenticator = new SoftAuthenticator();
    await register(who.accessToken, authenticator);
    assert.equal((await signIn(authenticator)).statusCode, 200);
    assert.equal((await signIn(authenticator)).statusCode, 200);
    authenticator.counter = 0;
    const cloned = await signIn(authenticator);
    assert.equal(cloned.statusCode, 401);
  });

  it('refuses an unknown credential, a forged signature and another user’s handle', async () => {
    const who = await member();
    const authenticator = new SoftAuthenticator();
    await register(who.accessToken, authenticator);
    assert.equal((await signIn(new SoftAuthenticator())).statusCode, 401, 'unknown credential');

    const { options, jar } = await signInOptions();
    const response = authenticator.get(options, origin);
    const forged = {
      ...response,
      response: { ...response.response, signature: response.response.signature.slice(0, -4) + 'AAAA' },
    };
    assert.equal((await withCookies(t, jar, '/account/passkey', { response: forged })).statusCode, 401);

    const other = await member();
    const otherKey = new SoftAuthenticator();
    await register(other.accessToken, otherKey);
    authenticator.userHandle = otherKey.userHandle;
    assert.equal((await signIn(authenticator)).statusCode, 401, 'a handle naming another user');
  });

  it('on a team’s sign-in page, refuses a passkey of a member of another team', async () => {
    const who = await member();
    const authenticator = new SoftAuthenticator();
    await register(who.accessToken, authenticator);
    const refused = await signIn(authenticator, 'globex');
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().code, 'passkeyRefused', 'not told it was removed');
    assert.equal(
      refused.cookies.find((c) => c.name === 'acct_session'),
      undefined,
    );
    assert.equal((await signIn(authenticator, 'Acme')).statusCode, 200);
  });

  it('tells a passkey removed from its account apart from another team’s', async () => {
    const who = await member();
    const authenticator = new SoftAuthenticator();
    const id = (await register(who.accessToken, authenticator)).json().id as string;
    assert.equal((await bearer(t, who.accessToken, 'DELETE', `/api/user/passkeys/${id}`)).statusCode, 204);
    const removed = await signIn(authenticator, 'acme');
    assert.equal(removed.statusCode, 401);
    assert.equal(removed.json().code, 'passkeyUnknown');
    assert.doesNotMatch(removed.body, /@/, 'names no account');
  });

  it('stops at once for a disabled member', async () => {
    const who = await member();
    const authenticator = new SoftAuthenticator();
    await register(who.accessToken, authenticator);
    await t.db.kysely
      .updateTable('users')
      .set({ disabled_at: t.clock.now() })
      .where('id', '=', who.userId)
      .execute();
    assert.equal((await signIn(authenticator)).statusCode, 401);
    await t.db.kysely.updateTable('users').set({ disabled_at: null }).where('id', '=', who.userId).execute();
    assert.equal((await signIn(authenticator)).statusCode, 200);
  });

  it('is the second step of a two-step sign-in: amr pwd hwk mfa', async () => {
    const { who, authenticator, secret } = await memberWithPasskeyAndApp();
    const first = await login(t, who.email);
    assert.deepEqual(first.json(), { twoStep: { methods: ['totp', 'recovery', 'passkey'], enrol: false } });
    const pending = cookiesFrom(first);
    const { options, jar } = await signInOptions();
    const done = await withCookies(t, withPending(pending, jar), '/account/passkey', {
      response: authenticator.get(options, origin),
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.deepEqual((await tokensOf(done)).amr, ['pwd', 'hwk', 'mfa']);
    // The pending sign-in is used up.
    const after = await withCookies(t, pending, '/account/two-step', {
      code: codeFor(t, secret, 30_000),
    });
    assert.equal(after.statusCode, 401);
  });

  it('as a second step, is refused when it is another user’s passkey; the pending sign-in stays', async () => {
    const who = await member();
    const other = await member();
    const others = new SoftAuthenticator();
    await register(other.accessToken, others);
    const key = (await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp')).json();
    await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp/confirm', {
      code: codeFor(t, key.secret as string),
    });
    const pending = cookiesFrom(await login(t, who.email));
    const { options, jar } = await signInOptions();
    const both = {
      cookie: `${jar.cookie}; ${pending.cookie.replace(/XSRF-TOKEN=[^;]*;?\s*/, '')}`,
      xsrf: jar.xsrf,
    };
    const refused = await withCookies(t, both, '/account/passkey', {
      response: others.get(options, origin),
      secondStep: true,
    });
    assert.equal(refused.statusCode, 401);
    assert.equal(
      refused.cookies.find((c) => c.name === 'acct_session'),
      undefined,
    );
    const code = await withCookies(t, pending, '/account/two-step', {
      code: codeFor(t, key.secret as string, 30_000),
    });
    assert.equal(code.statusCode, 200, code.body);
  });

  it('follows the team’s passkey setting as the first step, never as the second', async () => {
    const { who, authenticator } = await memberWithPasskeyAndApp();
    const setting = (on: boolean) =>
      t.db.kysely
        .updateTable('teams')
        .set({ passkeys_enabled: on ? 1 : 0 })
        .where('name', '=', 'acme')
        .execute();
    await setting(false);
    try {
      const details = await t.app.inject({ method: 'GET', url: '/api/team/public/acme' });
      assert.equal(details.statusCode, 200);
      assert.equal('passkeyOptions' in details.json(), false);
      const options = await t.app.inject({ method: 'POST', url: '/account/passkey/options?team=Acme' });
      assert.equal(options.statusCode, 403, options.body);
      assert.equal(options.json().code, 'passkeysOff');
      // Without the page's team, or with another, the passkey's own team decides.
      for (const teamName of [undefined, 'Acme']) {
        const refused = await signIn(authenticator, teamName);
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().code, 'passkeysOff');
        assert.equal(
          refused.cookies.find((c) => c.name === 'acct_session'),
          undefined,
        );
      }
      // After the password, the passkey is still the second step.
      const pending = cookiesFrom(await login(t, who.email));
      const { options: second, jar } = await signInOptions();
      const done = await withCookies(t, withPending(pending, jar), '/account/passkey', {
        response: authenticator.get(second, origin),
        teamName: 'acme',
        secondStep: true,
      });
      assert.equal(done.statusCode, 200, done.body);
      assert.deepEqual((await tokensOf(done)).amr, ['pwd', 'hwk', 'mfa']);
    } finally {
      await setting(true);
    }
    const details = await t.app.inject({ method: 'GET', url: '/api/team/public/acme' });
    assert.deepEqual(details.json().passkeyOptions, {});
    assert.equal(
      (await t.app.inject({ method: 'POST', url: '/account/passkey/options?team=acme' })).statusCode,
      200,
    );
    assert.equal((await signIn(authenticator, 'acme')).statusCode, 200);
  });
});

describe('managing passkeys', () => {
  it('renames and removes only the caller’s own (404 for another user’s id)', async () => {
    const owner = await member();
    const other = await member();
    const id = (await register(owner.accessToken, new SoftAuthenticator())).json().id as string;

    const rename = await bearer(t, owner.accessToken, 'PATCH', `/api/user/passkeys/${id}`, { name: 'Phone' });
    assert.equal(rename.statusCode, 200, rename.body);
    assert.equal(rename.json().name, 'Phone');
    const badName = await bearer(t, owner.accessToken, 'PATCH', `/api/user/passkeys/${id}`, { name: '   ' });
    assert.equal(badName.statusCode, 400);
    assert.equal(badName.json().code, 'invalidName');

    const foreignRename = await bearer(t, other.accessToken, 'PATCH', `/api/user/passkeys/${id}`, {
      name: 'x',
    });
    assert.equal(foreignRename.statusCode, 404);
    const foreignRemove = await bearer(t, other.accessToken, 'DELETE', `/api/user/passkeys/${id}`);
    assert.equal(foreignRemove.statusCode, 404);
    assert.deepEqual((await bearer(t, other.accessToken, 'GET', '/api/user/passkeys')).json(), {
      passkeys: [],
    });

    const removed = await bearer(t, owner.accessToken, 'DELETE', `/api/user/passkeys/${id}`);
    assert.equal(removed.statusCode, 204);
    assert.equal((await bearer(t, owner.accessToken, 'DELETE', `/api/user/passkeys/${id}`)).statusCode, 404);
    // The owner's security log has both; the other user's has neither.
    const kinds = async (token: string) =>
      ((await bearer(t, token, 'GET', '/api/user/activity')).json().events as Array<{ kind: string }>)
        .map((event) => event.kind)
        .filter((kind) => kind.startsWith('passkey'))
        .sort();
    assert.deepEqual(await kinds(owner.accessToken), ['passkeyAdded', 'passkeyRemoved']);
    assert.deepEqual(await kinds(other.accessToken), []);
  });

  it('never removes the last way to sign in, and the provider unlink guard counts passkeys', async () => {
    const who = await member('nopw', null);
    const first = (await register(who.accessToken, new SoftAuthenticator())).json().id as string;
    const last = await bearer(t, who.accessToken, 'DELETE', `/api/user/passkeys/${first}`);
    assert.equal(last.statusCode, 409);
    assert.equal(last.json().code, 'onlySignIn');
    const second = (await register(who.accessToken, new SoftAuthenticator())).json().id as string;
    assert.equal((await bearer(t, who.accessToken, 'DELETE', `/api/user/passkeys/${first}`)).statusCode, 204);
    assert.equal(
      (await bearer(t, who.accessToken, 'DELETE', `/api/user/passkeys/${second}`)).statusCode,
      409,
    );

    // Bob signs in with Google only: with a passkey, Google may go.
    const bob = await tokenFor(t.app, 'bob@acme.test', 'acme');
    assert.equal((await bearer(t, bob.accessToken, 'DELETE', '/api/user/password/Google')).statusCode, 409);
    assert.equal((await register(bob.accessToken, new SoftAuthenticator())).statusCode, 201);
    assert.equal((await bearer(t, bob.accessToken, 'DELETE', '/api/user/password/Google')).statusCode, 200);
  });

  it('proves presence again with one of the caller’s own passkeys to turn two-step sign-in off', async () => {
    const who = await member();
    const mine = new SoftAuthenticator();
    await register(who.accessToken, mine);
    const key = (await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp')).json();
    await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp/confirm', {
      code: codeFor(t, key.secret as string),
    });
    const other = await member();
    const theirs = new SoftAuthenticator();
    await register(other.accessToken, theirs);

    const reauth = async () =>
      (await bearer(t, who.accessToken, 'POST', '/api/user/passkeys/reauth-options')).json() as {
        challenge: string;
        rpId: string;
      };
    const foreign = await bearer(t, who.accessToken, 'DELETE', '/api/user/two-step/totp', {
      passkey: theirs.get(await reauth(), origin),
    });
    assert.equal(foreign.statusCode, 400, 'another user’s passkey');
    assert.equal(foreign.json().code, 'passkeyRefused');
    // A sign-in challenge is no re-authentication challenge.
    const { options } = await signInOptions();
    const wrongKind = await bearer(t, who.accessToken, 'DELETE', '/api/user/two-step/totp', {
      passkey: mine.get(options, origin),
    });
    assert.equal(wrongKind.statusCode, 400);

    const proof = mine.get(await reauth(), origin);
    const off = await bearer(t, who.accessToken, 'DELETE', '/api/user/two-step/totp', { passkey: proof });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().totp, false);
    await smtp.next(who.email, /two-step sign-in is off/i);
    const replay = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/recovery-codes', {
      passkey: proof,
    });
    assert.equal(replay.statusCode, 400, 'the challenge works once');
  });

  it('every passkey route refuses a missing or forged token (401)', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/api/user/passkeys/options'],
      [
        'POST',
        '/api/user/passkeys',
        {
          name: 'x',
          response: new SoftAuthenticator().create(
            { challenge: 'a', rp: { id: 'localhost' }, user: { id: 'a' } },
            origin,
          ),
        },
      ],
      ['GET', '/api/user/passkeys'],
      ['POST', '/api/user/passkeys/reauth-options'],
      ['PATCH', '/api/user/passkeys/some-id', { name: 'x' }],
      ['DELETE', '/api/user/passkeys/some-id'],
    ];
    for (const [method, url, body] of routes) {
      const none = await t.app.inject({
        method: method as 'GET',
        url,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
      });
      assert.equal(none.statusCode, 401, `${method} ${url}`);
      assert.equal((await bearer(t, 'a.b.c', method, url, body)).statusCode, 401, `${method} ${url} forged`);
    }
  });
});
