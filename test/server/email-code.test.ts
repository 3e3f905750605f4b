import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { LOCKOUT_THRESHOLD } from '../../demo/server/lib/lockout';
import { EMAIL_CODE_MS } from '../../demo/server/routes/email-code';
import { proofFor } from '../support/proof';
import { TestSmtp } from '../support/smtp';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';
import { codeFor, cookiesFrom, makeUser, memberWithApp, withCookies } from '../support/two-step';

let t: TestApp;
let smtp: TestSmtp;
let who: Callers;
before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://portal.example.test',
    LOGIN_ADDRESS_LIMIT: '1000',
  });
  who = await callers(t);
  // acme offers it for these tests; globex does not.
  const on = await api(t, 'PATCH', '/api/team/login-options', who.owner, { emailCode: true });
  assert.equal(on.statusCode, 200, on.body);
});
after(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.db.kysely.deleteFrom('login_failures').execute();
  await t.db.kysely.deleteFrom('rate_limits').execute();
  t.clock.offset = 0;
});

let serial = 0;
/** A fresh member of acme with a password. */
async function member(prefix = 'code') {
  const email = `${prefix}${++serial}@acme.test`;
  await makeUser(t, email);
  return email;
}

function post(url: string, body: unknown, cookies?: { cookie: string; xsrf: string }) {
  if (cookies) return withCookies(t, cookies, url, body);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

/** Ask for a mail as the screen does: with a solved proof-of-work challenge. */
const ask = async (email: string, team = 'acme') =>
  post('/account/email-code', { teamName: team, email, proof: await proofFor(t.app) });
const verify = (email: string, code: string, team = 'acme') =>
  post('/account/email-code/verify', { teamName: team, email, code });

/** Ask for a code as a browser does; the mail's code, link and token, and the asking browser's cookies. */
async function mailed(email: string) {
  const asked = await ask(email);
  assert.equal(asked.statusCode, 200, asked.body);
  const mail = await smtp.next(email, /sign-in code/);
  const code = /^ {4}(\d{6})$/m.exec(mail.text)?.[1];
  assert.ok(code, mail.text);
  const link = new URL(mail.link!);
  return { mail, code, link, token: link.searchParams.get('token')!, browser: cookiesFrom(asked) };
}

/** Whether the answer began a session (its cookie set). */
const session = (response: LightMyRequestResponse) =>
  response.cookies.some((c) => c.name === 'acct_session' && c.value !== '');

/** Ask for one more code for a real member and wait for its mail: mail of earlier requests is in by then. */
async function laterMailIn() {
  const email = await member('later');
  assert.equal((await ask(email)).statusCode, 200);
  await smtp.next(email, /sign-in code/);
}

describe('POST /account/email-code', () => {
  it('answers the same for a member and an unknown address, and mails only the member', async () => {
    const email = await member();
    const real = await ask(email);
    const ghost = await ask('ghost@acme.test');
    assert.equal(real.statusCode, 200);
    assert.equal(ghost.statusCode, 200);
    assert.equal(real.body, ghost.body);
    assert.deepEqual(
      real.cookies.map((c) => c.name).sort(),
      ghost.cookies.map((c) => c.name).sort(),
      'the same cookies',
    );
    const mail = await smtp.next(email, /sign-in code/);
    await laterMailIn();
    assert.deepEqual(
      smtp.received.map((m) => m.to),
      [],
      'no mail for the unknown address',
    );
    // One mail: the six digits (in the subject too) and the link, built from PUBLIC_URL.
    const code = /^ {4}(\d{6})$/m.exec(mail.text)?.[1];
    assert.ok(code && mail.subject.startsWith(code), mail.subject);
    assert.ok(mail.link?.startsWith('https://portal.example.test/login/acme/emailCode?token='), mail.link!);
    assert.match(mail.html, new RegExp(`>${code}<`));
    assert.match(mail.text, /ten minutes/);
  });

  it('is refused when the team does not offer it (and was not before its admins turned it on)', async () => {
    expectError(await ask('carol@globex.test', 'globex'), 403, 'notOffered');
    expectError(await verify('carol@globex.test', '123456', 'globex'), 403, 'notOffered');
    expectError(await ask('someone@nowhere.test', 'no-such-team'), 403, 'notOffered');
  });

  it('wants a solved proof-of-work challenge, each accepted once', async () => {
    const email = await member();
    const without = await post('/account/email-code', { teamName: 'acme', email });
    expectError(without, 403, 'challengeRequired');
    const proof = await proofFor(t.app);
    const body = { teamName: 'acme', email, proof };
    assert.equal((await post('/account/email-code', body)).statusCode, 200);
    expectError(await post('/account/email-code', body), 403, 'challengeUsed');
    await smtp.next(email, /sign-in code/);
  });

  it('is rate limited per account like forgot-password', async () => {
    const email = 'limited@acme.test';
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await ask(email)).statusCode);
    assert.deepEqual(answers, [200, 200, 200, 200, 200, 429]);
  });
});

describe('signing in with the code', () => {
  it('signs in with the code, in any browser, once', async () => {
    const email = await member();
    const { code } = await mailed(email);
    // No cookie of the asking browser: the code works anywhere.
    const done = await verify(email, code.replace(/(\d{3})/, '$1 '));
    assert.equal(done.statusCode, 200, done.body);
    assert.deepEqual(done.json(), { authenticated: true });
    assert.ok(session(done));
    // Single use.
    const again = await verify(email, code);
    expectError(again, 401, 'invalidCode', 'code');
  });

  it('expires after ten minutes', async () => {
    const email = await member();
    const { code } = await mailed(email);
    t.clock.advance(EMAIL_CODE_MS + 1000);
    expectError(await verify(email, code), 401, 'invalidCode', 'code');
    // Just before: still good.
    const other = await member();
    const fresh = await mailed(other);
    t.clock.advance(EMAIL_CODE_MS - 1000);
    assert.equal((await verify(other, fresh.code)).statusCode, 200);
  });

  it('works only for the newest mail', async () => {
    const email = await member();
    const first = await mailed(email);
    const second = await mailed(email);
    if (first.code !== second.code) expectError(await verify(email, first.code), 401, 'invalidCode');
    assert.equal((await verify(email, second.code)).statusCode, 200);
  });

  it('answers a wrong code for an unknown address as for a member', async () => {
    const email = await member();
    await mailed(email);
    const known = await verify(email, '000000');
    const unknown = await verify('ghost@acme.test', '000000');
    assert.equal(known.statusCode, 401);
    assert.equal(known.body, unknown.body);
  });

  it('counts wrong codes towards the lockout shared with the password, and ends the mailed code', async () => {
    const email = await member();
    const { code } = await mailed(email);
    const wrong = code === '111111' ? '222222' : '111111';
    const statuses = [];
    for (let i = 0; i < LOCKOUT_THRESHOLD; i++) statuses.push((await verify(email, wrong)).statusCode);
    assert.deepEqual(statuses, [401, 401, 401, 401, 403]);
    // Locked: the right code is refused, and so is the password (one count for both).
    expectError(await verify(email, code), 403);
    const password = await post('/account/login', { teamName: 'acme', email, password: 'portal-demo-pass' });
    assert.equal(password.statusCode, 403);
    // After the lock the old code is gone; a new mail's works.
    t.clock.advance(16 * 60_000);
    expectError(await verify(email, code), 401, 'invalidCode');
    await t.db.kysely.deleteFrom('rate_limits').execute();
    const fresh = await mailed(email);
    assert.equal((await verify(email, fresh.code)).statusCode, 200);
  });

  it('wrong passwords count too: the code is refused once the password locked the account', async () => {
    const email = await member();
    // After the first failures each try needs a solved challenge, as a browser's would carry.
    for (let i = 0; i < LOCKOUT_THRESHOLD; i++) {
      const body = { teamName: 'acme', email, password: 'not-the-password', proof: await proofFor(t.app) };
      await post('/account/login', body);
    }
    expectError(await ask(email), 403);
    assert.equal((await ask(email)).json<{ message: string }>().message, 'account locked');
  });

  it('still asks for the second step of a member with two-step sign-in', async () => {
    const email = `twostep${++serial}@acme.test`;
    const { secret } = await memberWithApp(t, email);
    await smtp.next(email, /two-step sign-in is on/i);
    const { code } = await mailed(email);
    const first = await verify(email, code);
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(first.json(), { twoStep: { methods: ['totp', 'recovery'], enrol: false } });
    assert.ok(!session(first), 'no session before the second step');
    const jar = cookiesFrom(first);
    const second = await withCookies(t, jar, '/account/two-step', { code: codeFor(t, secret) });
    assert.equal(second.statusCode, 200, second.body);
    assert.ok(session(second));
  });

  it('is refused once the team turns it off, with a code already mailed', async () => {
    const email = await member();
    const { code, token, browser } = await mailed(email);
    const off = await api(t, 'PATCH', '/api/team/login-options', who.owner, { emailCode: false });
    assert.equal(off.statusCode, 200, off.body);
    try {
      expectError(await verify(email, code), 403, 'notOffered');
      expectError(
        await post('/account/email-code/link', { teamName: 'acme', token }, browser),
        403,
        'notOffered',
      );
      expectError(await ask(email), 403, 'notOffered');
      const shown = (await t.app.inject({ method: 'GET', url: '/api/team/public/acme' })).json();
      assert.equal('emailCodeOptions' in shown, false);
    } finally {
      await api(t, 'PATCH', '/api/team/login-options', who.owner, { emailCode: true });
    }
    const shown = (await t.app.inject({ method: 'GET', url: '/api/team/public/acme' })).json();
    assert.deepEqual(shown.emailCodeOptions, {});
  });
});

describe('the mail’s link', () => {
  it('signs in the browser that asked, once', async () => {
    const email = await member();
    const { token, browser } = await mailed(email);
    const done = await post('/account/email-code/link', { teamName: 'acme', token }, browser);
    assert.equal(done.statusCode, 200, done.body);
    assert.ok(session(done));
    const again = await post('/account/email-code/link', { teamName: 'acme', token }, browser);
    expectError(again, 410, 'codeGone');
  });

  it('in another browser uses nothing up and asks for the code, which then signs in there', async () => {
    const email = await member();
    const { token, code, browser } = await mailed(email);
    // Another browser: no cookie at all, or the cookie of a browser that asked for someone else.
    expectError(await post('/account/email-code/link', { teamName: 'acme', token }), 409, 'otherBrowser');
    const stranger = await mailed(await member());
    expectError(
      await post('/account/email-code/link', { teamName: 'acme', token }, stranger.browser),
      409,
      'otherBrowser',
    );
    // The link with a wrong code counts like a wrong code; with the right one it signs in.
    expectError(await post('/account/email-code/verify', { teamName: 'acme', token, code: '00000x' }), 401);
    const done = await post('/account/email-code/verify', { teamName: 'acme', token, code });
    assert.equal(done.statusCode, 200, done.body);
    assert.ok(session(done));
    // Used up: the asking browser's link no longer works either.
    expectError(
      await post('/account/email-code/link', { teamName: 'acme', token }, browser),
      410,
      'codeGone',
    );
  });

  it('expires with the code', async () => {
    const email = await member();
    const { token, browser } = await mailed(email);
    t.clock.advance(EMAIL_CODE_MS + 1000);
    expectError(
      await post('/account/email-code/link', { teamName: 'acme', token }, browser),
      410,
      'codeGone',
    );
  });

  it('stores no code, link or browser value in the clear', async () => {
    const email = await member();
    const { code, token, browser } = await mailed(email);
    const rows = JSON.stringify(await t.db.kysely.selectFrom('email_codes').selectAll().execute());
    assert.ok(!rows.includes(token));
    assert.ok(!rows.includes(`"${code}"`));
    const value = browser.cookie.match(/acct_email_code=([^;]+)/)?.[1];
    assert.ok(value && !rows.includes(value));
  });
});

describe('PATCH /api/team/login-options { emailCode }', () => {
  it('is for the team’s own admins, and audited', async () => {
    expectError(await api(t, 'PATCH', '/api/team/login-options', undefined, { emailCode: true }), 401);
    expectError(await api(t, 'PATCH', '/api/team/login-options', who.member, { emailCode: false }), 403);
    // Another team's admin changes their own team, never acme.
    const other = await api(t, 'PATCH', '/api/team/login-options', who.otherAdmin, { emailCode: true });
    assert.equal(other.statusCode, 200, other.body);
    assert.equal(other.json().name, 'globex');
    const acme = await api(t, 'GET', '/api/team', who.owner);
    assert.equal(acme.json().loginOptions.emailCode, true);
    await api(t, 'PATCH', '/api/team/login-options', who.otherAdmin, { emailCode: false });

    const off = await api(t, 'PATCH', '/api/team/login-options', who.admin, { emailCode: false });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().loginOptions.emailCode, false);
    const audit = await api(t, 'GET', '/api/team/audit?kind=team', who.owner);
    const latest = audit.json().events[0];
    assert.equal(latest.action, 'team.loginOptions');
    assert.deepEqual(latest.detail, { emailCode: false });
    const on = await api(t, 'PATCH', '/api/team/login-options', who.admin, { emailCode: true });
    assert.equal(on.json().loginOptions.emailCode, true);
  });
});
