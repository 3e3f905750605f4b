import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { signInAtProvider } from '../support/idp';
import { TestSmtp } from '../support/smtp';
import { createTestApp, exchangeSession, tokenFor, type TestApp } from '../support/test-server';
import { bearer, codeFor, cookiesFrom, login, makeUser, withCookies } from '../support/two-step';

let t: TestApp;
let smtp: TestSmtp;
before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url, LOGIN_ADDRESS_LIMIT: '1000' });
});
after(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.db.kysely.deleteFrom('login_failures').execute();
  await t.db.kysely.deleteFrom('rate_limits').execute();
});

let serial = 0;
/** A fresh member and their portal access token. */
async function member(prefix = 'two') {
  const email = `${prefix}${++serial}@acme.test`;
  const userId = await makeUser(t, email);
  const { accessToken } = await tokenFor(t.app, email, 'acme');
  return { email, userId, accessToken };
}

/** A fresh member with two-step sign-in on: their key and recovery codes. */
async function enrolled(prefix = 'on') {
  const who = await member(prefix);
  const key = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp');
  assert.equal(key.statusCode, 200, key.body);
  const { secret, uri } = key.json() as { secret: string; uri: string };
  assert.match(uri, /^otpauth:\/\/totp\//);
  assert.ok(uri.includes(`secret=${secret}`));
  const confirm = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp/confirm', {
    code: codeFor(t, secret),
  });
  assert.equal(confirm.statusCode, 200, confirm.body);
  const { recoveryCodes } = confirm.json() as { recoveryCodes: string[] };
  await smtp.next(who.email, /two-step sign-in is on/i);
  // The enrolment used this step's code: the next sign-in's code comes from the next step.
  t.clock.advance(30_000);
  return { ...who, secret, recoveryCodes };
}

/** A password sign-in that stops at the second step: the pending sign-in's cookies. */
async function pendingSignIn(email: string) {
  const response = await login(t, email);
  assert.equal(response.statusCode, 200, response.body);
  assert.ok(response.json().twoStep, response.body);
  return { response, jar: cookiesFrom(response) };
}

describe('authenticator app enrolment', () => {
  it('says whether the user has a password to prove presence with', async () => {
    const email = `no-password-${Date.now()}@acme.test`;
    await makeUser(t, email, 'acme', null);
    const { accessToken } = await tokenFor(t.app, email, 'acme');
    const status = await bearer(t, accessToken, 'GET', '/api/user/two-step');
    assert.equal(status.json().password, false);
  });

  it('is off until confirmed with a code, then shows ten recovery codes once and mails a notice', async () => {
    const who = await member();
    const key = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp');
    const { secret } = key.json() as { secret: string };
    // Not confirmed: sign-in still needs only the password.
    const direct = await login(t, who.email);
    assert.deepEqual(direct.json(), { authenticated: true });

    const wrong = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp/confirm', {
      code: '000000',
    });
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().code, 'invalidCode');

    const confirm = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp/confirm', {
      code: codeFor(t, secret),
    });
    assert.equal(confirm.statusCode, 200, confirm.body);
    const codes = confirm.json().recoveryCodes as string[];
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, /^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
    const status = await bearer(t, who.accessToken, 'GET', '/api/user/two-step');
    assert.deepEqual(status.json(), {
      totp: true,
      recoveryCodesLeft: 10,
      passkeys: 0,
      required: false,
      password: true,
    });
    const mail = await smtp.next(who.email, /two-step sign-in is on/i);
    assert.match(mail.text, /authenticator app/);

    // Stored sealed and hashed: neither the key nor a code is in the database as text.
    const stored = await t.db.kysely
      .selectFrom('totp_secrets')
      .select('sealed_secret')
      .where('user_id', '=', who.userId)
      .executeTakeFirstOrThrow();
    assert.ok(!stored.sealed_secret.includes(secret));
    const hashes = await t.db.kysely
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', who.userId)
      .execute();
    assert.ok(hashes.every((row) => !codes.some((code) => row.code_hash.includes(code.replace(/-/g, '')))));

    const again = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp');
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'alreadyOn');
    t.clock.advance(30_000);
  });
});

describe('sign-in with two-step on', () => {
  it('answers {twoStep} without a session, then the code from the app signs in with amr and auth_time', async () => {
    const who = await enrolled();
    const { response, jar } = await pendingSignIn(who.email);
    assert.deepEqual(response.json(), { twoStep: { methods: ['totp', 'recovery'], enrol: false } });
    assert.equal(
      response.cookies.find((c) => c.name === 'acct_session'),
      undefined,
      'no session before the second step',
    );
    const pending = response.cookies.find((c) => c.name === 'acct_two_step')!;
    assert.equal(pending.httpOnly, true);
    assert.equal(pending.maxAge, 300);

    const before = Date.now();
    const done = await withCookies(t, jar, '/account/two-step', { code: codeFor(t, who.secret) });
    assert.equal(done.statusCode, 200, done.body);
    assert.deepEqual(done.json(), { authenticated: true });
    const session = cookiesFrom(done);
    assert.ok(session.cookie.includes('acct_session='));

    const check = await withCookies(t, session, '/account/check');
    const sessionId = check.json().session as string;
    const token = await exchangeSession(t.app, session, sessionId);
    assert.equal(token.statusCode, 200, token.body);
    const idToken = decodeJwt(token.json().id_token as string);
    assert.deepEqual(idToken.amr, ['pwd', 'otp', 'mfa']);
    const authTime = idToken.auth_time as number;
    assert.ok(Math.abs(authTime * 1000 - (before + t.clock.offset)) < 60_000, `auth_time ${authTime}`);
    const access = decodeJwt(token.json().access_token as string);
    assert.deepEqual(access.amr, ['pwd', 'otp', 'mfa']);
    assert.equal(access.auth_time, authTime);

    // The pending sign-in was used up.
    const reuse = await withCookies(t, jar, '/account/two-step', { code: codeFor(t, who.secret, 30_000) });
    assert.equal(reuse.statusCode, 401);
    assert.equal(reuse.json().code, 'twoStepExpired');
  });

  it('a password-only sign-in says amr pwd', async () => {
    const who = await member('pwd');
    const response = await login(t, who.email);
    const jar = cookiesFrom(response);
    const check = await withCookies(t, jar, '/account/check');
    const token = await exchangeSession(t.app, jar, check.json().session as string);
    assert.deepEqual(decodeJwt(token.json().id_token as string).amr, ['pwd']);
  });

  it('the half-signed-in state grants nothing else', async () => {
    const who = await enrolled('half');
    const { response, jar } = await pendingSignIn(who.email);
    const pendingToken = response.cookies.find((c) => c.name === 'acct_two_step')!.value;

    const check = await withCookies(t, jar, '/account/check');
    assert.deepEqual(check.json(), { authenticated: false });
    // Its value is no session either, whatever cookie it is sent as.
    const asSession = await withCookies(
      t,
      { cookie: `acct_session=${pendingToken}; XSRF-TOKEN=${jar.xsrf}`, xsrf: jar.xsrf },
      '/account/check',
    );
    assert.deepEqual(asSession.json(), { authenticated: false });
    const token = await exchangeSession(t.app, jar, 'x');
    assert.equal(token.statusCode, 400);
    assert.equal(token.json().error, 'invalid_grant');
    const dev = await t.app.inject({
      method: 'POST',
      url: '/home/token',
      headers: { cookie: jar.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ __RequestVerificationToken: jar.xsrf, scope: 'openid' }).toString(),
    });
    assert.equal(dev.statusCode, 401);
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/user/two-step',
      headers: { cookie: jar.cookie },
    });
    assert.equal(api.statusCode, 401);
    // Nor can it enrol a key: the enrolment call is only for a team that requires it.
    const enrol = await withCookies(t, jar, '/account/two-step/enrol');
    assert.equal(enrol.statusCode, 409);
  });

  it('expires after five minutes', async () => {
    const who = await enrolled('late');
    const { jar } = await pendingSignIn(who.email);
    t.clock.advance(5 * 60_000 + 1000);
    const late = await withCookies(t, jar, '/account/two-step', { code: codeFor(t, who.secret) });
    assert.equal(late.statusCode, 401);
    assert.equal(late.json().code, 'twoStepExpired');
  });

  it('accepts a code once: the same code again in its window is refused', async () => {
    const who = await enrolled('replay');
    const code = codeFor(t, who.secret);
    const first = await pendingSignIn(who.email);
    assert.equal((await withCookies(t, first.jar, '/account/two-step', { code })).statusCode, 200);
    const second = await pendingSignIn(who.email);
    const replay = await withCookies(t, second.jar, '/account/two-step', { code });
    assert.equal(replay.statusCode, 401);
    assert.equal(replay.json().code, 'invalidCode');
    // The next step's code works.
    t.clock.advance(30_000);
    const next = await withCookies(t, second.jar, '/account/two-step', { code: codeFor(t, who.secret) });
    assert.equal(next.statusCode, 200, next.body);
  });

  it('counts wrong codes like wrong passwords: five lock the account, and a right password does not reset the count', async () => {
    const who = await enrolled('lock');
    let { jar } = await pendingSignIn(who.email);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const wrong = await withCookies(t, jar, '/account/two-step', { code: '000000' });
      assert.equal(wrong.statusCode, 401, `attempt ${attempt}`);
      assert.equal(wrong.json().field, 'code');
    }
    // Signing in again with the password does not clear the failures.
    ({ jar } = await pendingSignIn(who.email));
    assert.equal(
      (await withCookies(t, jar, '/account/two-step', { recoveryCode: 'AAAA-AAAA-AAAA-AAAA' })).statusCode,
      401,
    );
    const fifth = await withCookies(t, jar, '/account/two-step', { code: '000000' });
    assert.equal(fifth.statusCode, 403);
    assert.deepEqual(fifth.json(), { message: 'account locked' });
    // Locked: the right code does not help, nor the password.
    const right = await withCookies(t, jar, '/account/two-step', { code: codeFor(t, who.secret) });
    assert.equal(right.statusCode, 401, 'the lock ended the pending sign-in');
    assert.equal((await login(t, who.email)).statusCode, 403);
  });

  it('is rate-limited per address', async () => {
    const limited = await createTestApp({ LOGIN_ADDRESS_LIMIT: '2' });
    try {
      const response = await limited.app.inject({
        method: 'POST',
        url: '/account/two-step',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ code: '123456' }),
      });
      assert.equal(response.statusCode, 401);
      await limited.app.inject({
        method: 'POST',
        url: '/account/two-step',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ code: '123456' }),
      });
      const third = await limited.app.inject({
        method: 'POST',
        url: '/account/two-step',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ code: '123456' }),
      });
      assert.equal(third.statusCode, 429);
      assert.ok(third.headers['retry-after']);
    } finally {
      await limited.close();
    }
  });
});

describe('recovery codes', () => {
  it('sign in once each, mail a notice with the count left, in the user language', async () => {
    const who = await enrolled('rec');
    await t.db.kysely.updateTable('users').set({ language: 'de' }).where('id', '=', who.userId).execute();
    const code = who.recoveryCodes[0]!;
    const { jar } = await pendingSignIn(who.email);
    // Case, dashes and spaces do not matter.
    const typed = ` ${code.toLowerCase().replace(/-/g, ' ')} `;
    const done = await withCookies(t, jar, '/account/two-step', { recoveryCode: typed });
    assert.equal(done.statusCode, 200, done.body);
    const mail = await smtp.next(who.email, /Wiederherstellungscode/);
    assert.match(mail.text, /Verbleibende Wiederherstellungscodes: 9/);
    const status = await bearer(t, who.accessToken, 'GET', '/api/user/two-step');
    assert.equal(status.json().recoveryCodesLeft, 9);

    const again = await pendingSignIn(who.email);
    const reuse = await withCookies(t, again.jar, '/account/two-step', { recoveryCode: code });
    assert.equal(reuse.statusCode, 401);
    assert.equal(reuse.json().field, 'recoveryCode');
  });

  it('of parallel uses of one code, exactly one wins', async () => {
    const who = await enrolled('race');
    const code = who.recoveryCodes[1]!;
    const jars = [];
    for (let i = 0; i < 4; i++) jars.push((await pendingSignIn(who.email)).jar);
    const answers = await Promise.all(
      jars.map((jar) => withCookies(t, jar, '/account/two-step', { recoveryCode: code })),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    assert.deepEqual(statuses, [200, 401, 401, 401]);
    await smtp.next(who.email, /recovery code was used/i);
  });

  it('regenerate after the password: the old codes stop working', async () => {
    const who = await enrolled('regen');
    const wrong = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/recovery-codes', {
      password: 'not-it',
    });
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().code, 'InvalidPassword');
    const fresh = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/recovery-codes', {
      password: DEMO_PASSWORD,
    });
    assert.equal(fresh.statusCode, 200, fresh.body);
    const codes = fresh.json().recoveryCodes as string[];
    assert.equal(codes.length, 10);
    const { jar } = await pendingSignIn(who.email);
    const old = await withCookies(t, jar, '/account/two-step', { recoveryCode: who.recoveryCodes[0] });
    assert.equal(old.statusCode, 401);
    const ok = await withCookies(t, jar, '/account/two-step', { recoveryCode: codes[0] });
    assert.equal(ok.statusCode, 200, ok.body);
    await smtp.next(who.email, /recovery code was used/i);
  });
});

describe('turning two-step sign-in off', () => {
  it('needs the password, mails a notice, and sign-in needs the password only again', async () => {
    const who = await enrolled('off');
    const wrong = await bearer(t, who.accessToken, 'DELETE', '/api/user/two-step/totp', { password: 'nope' });
    assert.equal(wrong.statusCode, 400);
    const off = await bearer(t, who.accessToken, 'DELETE', '/api/user/two-step/totp', {
      password: DEMO_PASSWORD,
    });
    assert.equal(off.statusCode, 200, off.body);
    assert.deepEqual(off.json(), {
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: 0,
      required: false,
      password: true,
    });
    await smtp.next(who.email, /two-step sign-in is off/i);
    assert.deepEqual((await login(t, who.email)).json(), { authenticated: true });
    const again = await bearer(t, who.accessToken, 'DELETE', '/api/user/two-step/totp', {
      password: DEMO_PASSWORD,
    });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'notOn');
    const regen = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/recovery-codes', {
      password: DEMO_PASSWORD,
    });
    assert.equal(regen.statusCode, 409);
  });
});

describe("two-step changes in the user's security log, and leaving", () => {
  it('logs turning on, a recovery code used, new codes and turning off; deleting the account removes them all', async () => {
    const who = await enrolled('log');
    const { jar } = await pendingSignIn(who.email);
    const used = await withCookies(t, jar, '/account/two-step', { recoveryCode: who.recoveryCodes[0] });
    assert.equal(used.statusCode, 200, used.body);
    await smtp.next(who.email, /recovery code was used/i);
    const renewed = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/recovery-codes', {
      password: DEMO_PASSWORD,
    });
    assert.equal(renewed.statusCode, 200, renewed.body);
    const off = await bearer(t, who.accessToken, 'DELETE', '/api/user/two-step/totp', {
      password: DEMO_PASSWORD,
    });
    assert.equal(off.statusCode, 200, off.body);
    await smtp.next(who.email, /two-step sign-in is off/i);
    const log = await bearer(t, who.accessToken, 'GET', '/api/user/activity');
    assert.equal(log.statusCode, 200, log.body);
    const kinds = (log.json().events as Array<{ kind: string; method?: string }>).map((e) =>
      e.kind === 'signIn' ? `signIn:${e.method}` : e.kind,
    );
    // Events of one test-clock instant have no order between them.
    assert.deepEqual(kinds.filter((kind) => kind !== 'signIn:password').sort(), [
      'recoveryCodeUsed',
      'recoveryCodesRenewed',
      'signIn:twoStep',
      'twoStepOff',
      'twoStepOn',
    ]);

    // Enrolled again, then the account is deleted: its key, codes and used steps go with it.
    const again = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp');
    assert.equal(again.statusCode, 200, again.body);
    const confirm = await bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp/confirm', {
      code: codeFor(t, (again.json() as { secret: string }).secret),
    });
    assert.equal(confirm.statusCode, 200, confirm.body);
    const gone = await bearer(t, who.accessToken, 'DELETE', '/api/user', { password: DEMO_PASSWORD });
    assert.equal(gone.statusCode, 204, gone.body);
    const db = t.db.kysely;
    for (const table of ['totp_secrets', 'totp_used_steps', 'recovery_codes', 'activity_events'] as const) {
      const rows = await db.selectFrom(table).select('user_id').where('user_id', '=', who.userId).execute();
      assert.deepEqual(rows, [], table);
    }
  });
});

describe('moving the authenticator app to a new device', () => {
  it('needs the password; the old key works until a code from the new one confirms it, then only the new', async () => {
    const who = await enrolled('move');
    const replace = (proof: unknown) =>
      bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp/replace', proof);
    const confirm = (body: unknown) =>
      bearer(t, who.accessToken, 'POST', '/api/user/two-step/totp/replace/confirm', body);
    assert.equal((await replace({ password: 'nope' })).statusCode, 400);
    const started = await replace({ password: DEMO_PASSWORD });
    assert.equal(started.statusCode, 200, started.body);
    const { secret, uri, replacement } = started.json() as {
      secret: string;
      uri: string;
      replacement: string;
    };
    assert.notEqual(secret, who.secret);
    assert.ok(uri.includes(`secret=${secret}`));

    // Nothing changed yet: the old app still signs in (its code of this step, used once).
    const before = await pendingSignIn(who.email);
    const oldCode = await withCookies(t, before.jar, '/account/two-step', { code: codeFor(t, who.secret) });
    assert.equal(oldCode.statusCode, 200, oldCode.body);
    t.clock.advance(30_000);

    // A wrong code, the old app's code, a forged or altered ticket: refused, nothing changed.
    assert.equal((await confirm({ replacement, code: '000000' })).json().code, 'invalidCode');
    assert.equal((await confirm({ replacement, code: codeFor(t, who.secret) })).statusCode, 400);
    const forged = await confirm({ replacement: `${replacement}x`, code: codeFor(t, secret) });
    assert.equal(forged.statusCode, 409);
    assert.equal(forged.json().code, 'replacementGone');

    const done = await confirm({ replacement, code: codeFor(t, secret) });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(done.json().totp, true);
    assert.equal(done.json().recoveryCodesLeft, 10);
    // Taken once: the same ticket again is gone.
    t.clock.advance(30_000);
    assert.equal((await confirm({ replacement, code: codeFor(t, secret) })).statusCode, 409);

    // Now the old app's codes are refused at sign-in, the new app's accepted.
    t.clock.advance(30_000);
    const after = await pendingSignIn(who.email);
    const stale = await withCookies(t, after.jar, '/account/two-step', { code: codeFor(t, who.secret) });
    assert.equal(stale.statusCode, 401);
    const fresh = await withCookies(t, after.jar, '/account/two-step', { code: codeFor(t, secret) });
    assert.equal(fresh.statusCode, 200, fresh.body);
    await login(t, who.email); // a sign-in for the log; the pending one is dropped
    const log = await bearer(t, who.accessToken, 'GET', '/api/user/activity');
    assert.ok((log.json().events as Array<{ kind: string }>).some((e) => e.kind === 'twoStepMoved'));
  });

  it('works where the team requires two-step sign-in (which refuses turning it off)', async () => {
    const admin = await tokenFor(t.app, 'carol@globex.test', 'globex');
    await bearer(t, admin.accessToken, 'PATCH', '/api/team/login-options', { requireTwoStep: true });
    try {
      const email = `move-required${++serial}@globex.test`;
      await makeUser(t, email, 'globex');
      const { accessToken } = await tokenFor(t.app, email, 'globex');
      const key = (await bearer(t, accessToken, 'POST', '/api/user/two-step/totp')).json() as {
        secret: string;
      };
      await bearer(t, accessToken, 'POST', '/api/user/two-step/totp/confirm', {
        code: codeFor(t, key.secret),
      });
      t.clock.advance(30_000);
      const off = await bearer(t, accessToken, 'DELETE', '/api/user/two-step/totp', {
        password: DEMO_PASSWORD,
      });
      assert.equal(off.json().code, 'requiredByTeam');
      const started = await bearer(t, accessToken, 'POST', '/api/user/two-step/totp/replace', {
        password: DEMO_PASSWORD,
      });
      const { secret, replacement } = started.json() as { secret: string; replacement: string };
      const done = await bearer(t, accessToken, 'POST', '/api/user/two-step/totp/replace/confirm', {
        replacement,
        code: codeFor(t, secret),
      });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal(done.json().required, true);
    } finally {
      await bearer(t, admin.accessToken, 'PATCH', '/api/team/login-options', { requireTwoStep: false });
    }
  });

  it("is refused without two-step on, and another user's ticket does not open for them", async () => {
    const owner = await enrolled('move-owner');
    const other = await enrolled('move-other');
    const none = await member('move-none');
    const off = await bearer(t, none.accessToken, 'POST', '/api/user/two-step/totp/replace', {
      password: DEMO_PASSWORD,
    });
    assert.equal(off.json().code, 'notOn');
    const started = await bearer(t, owner.accessToken, 'POST', '/api/user/two-step/totp/replace', {
      password: DEMO_PASSWORD,
    });
    const { secret, replacement } = started.json() as { secret: string; replacement: string };
    const foreign = await bearer(t, other.accessToken, 'POST', '/api/user/two-step/totp/replace/confirm', {
      replacement,
      code: codeFor(t, secret),
    });
    assert.equal(foreign.statusCode, 409);
    assert.equal(foreign.json().code, 'replacementGone');
  });
});

describe('authorisation of the two-step routes', () => {
  const routes: Array<[string, string, unknown?]> = [
    ['GET', '/api/user/two-step'],
    ['POST', '/api/user/two-step/totp'],
    ['POST', '/api/user/two-step/totp/confirm', { code: '123456' }],
    ['DELETE', '/api/user/two-step/totp', { password: 'x' }],
    ['POST', '/api/user/two-step/recovery-codes', { password: 'x' }],
    ['POST', '/api/user/two-step/totp/replace', { password: 'x' }],
    ['POST', '/api/user/two-step/totp/replace/confirm', { replacement: 'x', code: '123456' }],
  ];
  for (const [method, url, body] of routes) {
    it(`${method} ${url}: 401 without a token, and with a forged one`, async () => {
      const none = await t.app.inject({
        method: method as 'GET',
        url,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
      });
      assert.equal(none.statusCode, 401);
      const forged = await bearer(t, 'a.b.c', method, url, body);
      assert.equal(forged.statusCode, 401);
    });
  }

  it('each user sees and changes only their own two-step state', async () => {
    const owner = await enrolled('mine');
    const other = await member('theirs');
    const status = await bearer(t, other.accessToken, 'GET', '/api/user/two-step');
    assert.equal(status.json().totp, false);
    // Another user's password does not turn the owner's off, and their call concerns only themselves.
    const off = await bearer(t, other.accessToken, 'DELETE', '/api/user/two-step/totp', {
      password: DEMO_PASSWORD,
    });
    assert.equal(off.statusCode, 409);
    const mine = await bearer(t, owner.accessToken, 'GET', '/api/user/two-step');
    assert.equal(mine.json().totp, true);
  });

  it('a pending sign-in of one user cannot be finished with another user’s code', async () => {
    const first = await enrolled('u1');
    const second = await enrolled('u2');
    const { jar } = await pendingSignIn(first.email);
    const foreign = await withCookies(t, jar, '/account/two-step', { recoveryCode: second.recoveryCodes[0] });
    assert.equal(foreign.statusCode, 401);
    const foreignCode = await withCookies(t, jar, '/account/two-step', { code: codeFor(t, second.secret) });
    assert.equal(foreignCode.statusCode, 401);
  });
});

describe('a team that requires two-step sign-in', () => {
  it('is set by its admins in the login options, and said by GET /api/team and the public team', async () => {
    const admin = await tokenFor(t.app, 'carol@globex.test', 'globex');
    const plain = await makeUser(t, 'plain@globex.test', 'globex');
    assert.ok(plain);
    const { accessToken: memberToken } = await tokenFor(t.app, 'plain@globex.test', 'globex');
    const refused = await bearer(t, memberToken, 'PATCH', '/api/team/login-options', {
      requireTwoStep: true,
    });
    assert.equal(refused.statusCode, 403);

    const on = await bearer(t, admin.accessToken, 'PATCH', '/api/team/login-options', {
      requireTwoStep: true,
    });
    assert.equal(on.statusCode, 200, on.body);
    assert.equal(on.json().loginOptions.requireTwoStep, true);
    assert.equal(
      (await bearer(t, admin.accessToken, 'GET', '/api/team')).json().loginOptions.requireTwoStep,
      true,
    );
    const shown = (await t.app.inject({ method: 'GET', url: '/api/team/public/globex' })).json();
    assert.equal(shown.requireTwoStep, true);
    const audit = await bearer(t, admin.accessToken, 'GET', '/api/team/audit');
    assert.equal(audit.json().events[0].action, 'team.loginOptions');
    const acme = (await t.app.inject({ method: 'GET', url: '/api/team/public/acme' })).json();
    assert.equal('requireTwoStep' in acme, false);
  });

  it('makes a member without it enrol at sign-in before anything else', async () => {
    const email = 'enrol@globex.test';
    await makeUser(t, email, 'globex');
    const response = await login(t, email, DEMO_PASSWORD, 'globex');
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { twoStep: { methods: [], enrol: true } });
    const jar = cookiesFrom(response);
    assert.ok(!jar.cookie.includes('acct_session='));

    // Only the enrolment calls: no second step with a code, no session.
    const skip = await withCookies(t, jar, '/account/two-step', { code: '123456' });
    assert.equal(skip.statusCode, 409);
    assert.equal(skip.json().code, 'enrolRequired');
    assert.deepEqual((await withCookies(t, jar, '/account/check')).json(), { authenticated: false });
    const early = await withCookies(t, jar, '/account/two-step/enrol/confirm', { code: '123456' });
    assert.equal(early.statusCode, 409);

    const key = await withCookies(t, jar, '/account/two-step/enrol');
    assert.equal(key.statusCode, 200, key.body);
    const { secret, uri } = key.json() as { secret: string; uri: string };
    assert.match(uri, /^otpauth:\/\/totp\/.*enrol%40globex\.test/);
    const wrong = await withCookies(t, jar, '/account/two-step/enrol/confirm', { code: '000000' });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().code, 'invalidCode');
    const done = await withCookies(t, jar, '/account/two-step/enrol/confirm', { code: codeFor(t, secret) });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(done.json().authenticated, true);
    assert.equal(done.json().recoveryCodes.length, 10);
    const session = cookiesFrom(done);
    assert.equal((await withCookies(t, session, '/account/check')).json().authenticated, true);
    await smtp.next(email, /two-step sign-in is on/i);

    // Required by the team: it cannot be turned off.
    const { accessToken } = await tokenFor(t.app, email, 'globex');
    const status = await bearer(t, accessToken, 'GET', '/api/user/two-step');
    assert.deepEqual(status.json(), {
      totp: true,
      recoveryCodesLeft: 10,
      passkeys: 0,
      required: true,
      password: true,
    });
    const off = await bearer(t, accessToken, 'DELETE', '/api/user/two-step/totp', {
      password: DEMO_PASSWORD,
    });
    assert.equal(off.statusCode, 409);
    assert.equal(off.json().code, 'requiredByTeam');

    // The next sign-in asks for the code.
    t.clock.advance(30_000);
    const next = await login(t, email, DEMO_PASSWORD, 'globex');
    assert.deepEqual(next.json(), { twoStep: { methods: ['totp', 'recovery'], enrol: false } });
  });
});

describe('a provider sign-in and two-step sign-in', () => {
  /** Dan signs in to umbrella through its Azure provider: the callback's answer. */
  async function danThroughAzure() {
    const start = await t.app.inject({
      method: 'POST',
      url: '/account/azure',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ teamName: 'umbrella', returnUrl: '/manage' }).toString(),
    });
    assert.equal(start.statusCode, 303, start.body);
    const browser = start.cookies.find((c) => c.name === 'acct_oauth')!.value;
    const back = await signInAtProvider(
      String(start.headers.location),
      'dan',
      `${t.config.publicUrl}/account/callback/`,
    );
    return t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: `acct_oauth=${browser}` },
    });
  }

  it('stops at the second step the team requires, later at the one the user turned on', async () => {
    await t.db.kysely
      .updateTable('teams')
      .set({ require_two_step: 1 })
      .where('name', '=', 'umbrella')
      .execute();
    try {
      const response = await danThroughAzure();
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, '/login/umbrella?TwoStep=enrol&ReturnUrl=%2Fmanage');
      assert.equal(
        response.cookies.find((c) => c.name === 'acct_session'),
        undefined,
      );
      const jar = cookiesFrom(response);
      assert.ok(jar.cookie.includes('acct_two_step='));
      const key = (await withCookies(t, jar, '/account/two-step/enrol')).json() as { secret: string };
      const done = await withCookies(t, jar, '/account/two-step/enrol/confirm', {
        code: codeFor(t, key.secret),
      });
      assert.equal(done.statusCode, 200, done.body);
      await smtp.next('dan@umbrella.test', /two-step sign-in is on/i);
      const session = cookiesFrom(done);
      const check = await withCookies(t, session, '/account/check');
      const token = await exchangeSession(t.app, session, check.json().session as string);
      assert.deepEqual(decodeJwt(token.json().id_token as string).amr, ['fed', 'otp', 'mfa']);
    } finally {
      await t.db.kysely
        .updateTable('teams')
        .set({ require_two_step: 0 })
        .where('name', '=', 'umbrella')
        .execute();
    }
    // Dan's own two-step sign-in, now on, protects him when the team no longer requires it: a provider
    // vouching for him is one step, as a password is.
    t.clock.advance(30_000);
    const answer = await danThroughAzure();
    assert.equal(answer.headers.location, '/login/umbrella?TwoStep=verify&ReturnUrl=%2Fmanage');
    assert.equal(
      answer.cookies.find((c) => c.name === 'acct_session'),
      undefined,
    );
  });
});
