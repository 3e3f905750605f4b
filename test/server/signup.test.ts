import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { LOCKOUT_THRESHOLD } from '../../demo/server/lib/lockout';
import { SIGN_UP_CODE_MS, SIGN_UP_PENDING_MS } from '../../demo/server/routes/sign-up';
import { proofFor } from '../support/proof';
import { TestSmtp } from '../support/smtp';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, exchangeSession, type TestApp } from '../support/test-server';
import { cookiesFrom } from '../support/two-step';

/**
 * Starting a team (routes/sign-up.ts): the address verified by a mailed code or link before anything is
 * made, the code's lockout, expiry and single use, the names no team may take, the two races (one
 * address, two people; one person, two requests), no enumeration, and the switch that turns it off.
 */

let t: TestApp;
let smtp: TestSmtp;
let who: Callers;
const PASSWORD = 'a fine new passphrase';
/** Breached, and passes every other rule: only the range API's stand-in refuses it. */
const BREACHED = 'correct horse battery staple';

before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://portal.example.test',
    LOGIN_ADDRESS_LIMIT: '1000',
  });
  who = await callers(t);
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
/** A fresh person and team address for each test. */
function fresh(prefix = 'new') {
  serial++;
  return { email: `${prefix}${serial}@startup.test`, address: `${prefix}-team-${serial}` };
}

function post(url: string, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

const details = (email: string, address: string, extra: Record<string, string> = {}) => ({
  teamName: 'Rocket Science',
  address,
  name: 'Nia Newcomer',
  email,
  ...extra,
});
/** Ask for the mail as the screen does: with a solved proof-of-work challenge. */
const start = async (email: string, address: string, extra: Record<string, string> = {}) =>
  post('/account/signup', { ...details(email, address, extra), proof: await proofFor(t.app) });
const verify = (signUpId: string, code: string) => post('/account/signup/verify', { signUpId, code });
const link = (signUpId: string, token: string) => post('/account/signup/link', { signUpId, token });
const complete = (ticket: string, address: string, password = PASSWORD, confirm = password) =>
  post('/account/signup/complete', {
    ticket,
    teamName: 'Rocket Science',
    address,
    method: 'password',
    password,
    confirmPassword: confirm,
  });

/** Ask for the mail and read it: the id, the code, the link's token. */
async function mailed(email: string, address: string) {
  const asked = await start(email, address);
  assert.equal(asked.statusCode, 202, asked.body);
  const mail = await smtp.next(email, /code to start/);
  const code = /^ {4}(\d{6})$/m.exec(mail.text)?.[1];
  assert.ok(code, mail.text);
  assert.ok(mail.subject.startsWith(code), mail.subject);
  const url = new URL(mail.link!);
  const signUpId = (asked.json() as { signUpId: string }).signUpId;
  return { signUpId, code, token: url.searchParams.get('token')!, url, mail };
}

/** A verified sign-up's ticket. */
async function ticketFor(email: string, address: string) {
  const { signUpId, code } = await mailed(email, address);
  const verified = await verify(signUpId, code);
  assert.equal(verified.statusCode, 200, verified.body);
  return (verified.json() as { ticket: string }).ticket;
}

const session = (response: LightMyRequestResponse) =>
  response.cookies.some((c) => c.name === 'acct_session' && c.value !== '');

const teamCount = async (address: string) =>
  (await t.db.kysely.selectFrom('teams').select('id').where('name', '=', address).execute()).length;

describe('starting a team', () => {
  it('verifies the address, makes the team with its owner signed in, and shows the checklist', async () => {
    const { email, address } = fresh();
    const { signUpId, code, url, mail } = await mailed(email, address);
    // Built from PUBLIC_URL; nothing exists before the address is verified.
    assert.equal(url.origin + url.pathname, 'https://portal.example.test/signup');
    assert.equal(url.searchParams.get('id'), signUpId);
    assert.match(mail.text, /Rocket Science/);
    assert.match(mail.html, new RegExp(`>${code}<`));
    assert.equal(await teamCount(address), 0);

    const verified = await verify(signUpId, code);
    assert.equal(verified.statusCode, 200, verified.body);
    const body = verified.json() as Record<string, string>;
    assert.deepEqual(
      { email: body.email, name: body.name, teamName: body.teamName, address: body.address },
      { email, name: 'Nia Newcomer', teamName: 'Rocket Science', address },
    );
    const done = await complete(body.ticket!, address);
    assert.equal(done.statusCode, 200, done.body);
    assert.deepEqual(done.json(), { authenticated: true });
    assert.ok(session(done), 'signed in');

    // The session is as after a sign-in: it gets a token, which opens the team area as its owner.
    const jar = cookiesFrom(done);
    const checked = await t.app.inject({
      method: 'POST',
      url: '/account/check',
      headers: { cookie: jar.cookie, 'x-xsrf-token': jar.xsrf },
    });
    const sessionId = (checked.json() as { session: string }).session;
    const exchanged = await exchangeSession(t.app, jar, sessionId);
    assert.equal(exchanged.statusCode, 200, exchanged.body);
    const token = (exchanged.json() as { access_token: string }).access_token;
    const permissions = await api(t, 'GET', '/api/user/permissions', token);
    assert.equal((permissions.json() as Record<string, boolean>).OWNER, true);
    const team = await api(t, 'GET', '/api/team', token);
    assert.equal(team.statusCode, 200, team.body);
    const view = team.json() as { name: string; displayName: string; checklist?: boolean };
    assert.deepEqual([view.name, view.displayName, view.checklist], [address, 'Rocket Science', true]);

    // The team's log begins with who started it, before the owner's first sign-in.
    const log = await api(t, 'GET', '/api/team/audit?kind=team', token);
    assert.equal(log.statusCode, 200, log.body);
    const events = (
      log.json() as { events: Array<{ action: string; target: string; actor: { email: string } }> }
    ).events;
    assert.deepEqual(
      events.map((event) => [event.action, event.target, event.actor.email]),
      [['team.created', 'Rocket Science', email]],
    );

    // The checklist is put away for good; a demo team never had one.
    assert.equal((await api(t, 'DELETE', '/api/team/checklist', token)).statusCode, 204);
    assert.equal((await api(t, 'GET', '/api/team', token)).json().checklist, undefined);
    assert.equal((await api(t, 'GET', '/api/team', who.owner)).json().checklist, undefined);

    // The new owner signs in with the password like anyone.
    const login = await post('/account/login', { teamName: address, email, password: PASSWORD });
    assert.equal(login.statusCode, 200, login.body);
  });

  it('carries a ReturnUrl on the portal in the mail’s link, and never one elsewhere', async () => {
    const linkFor = async (returnUrl: string) => {
      const { email, address } = fresh('back');
      assert.equal((await start(email, address, { returnUrl })).statusCode, 202);
      return new URL((await smtp.next(email, /code to start/)).link!);
    };
    const back = await linkFor('/oidc/interaction/abc123');
    assert.equal(back.searchParams.get('ReturnUrl'), '/oidc/interaction/abc123');
    assert.ok(back.searchParams.get('id') && back.searchParams.get('token'));
    for (const hostile of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ])
      assert.equal((await linkFor(hostile)).searchParams.get('ReturnUrl'), null, hostile);
  });

  it('verifies with the one-click link instead of the code (once)', async () => {
    const { email, address } = fresh('link');
    const { signUpId, token, code } = await mailed(email, address);
    const opened = await link(signUpId, token);
    assert.equal(opened.statusCode, 200, opened.body);
    expectError(await link(signUpId, token), 410, 'signUpGone');
    // The link spent the mail: its code no longer works either.
    expectError(await verify(signUpId, code), 400, 'wrongCode', 'code');
    const done = await complete((opened.json() as { ticket: string }).ticket, address);
    assert.equal(done.statusCode, 200, done.body);
    expectError(await link(signUpId, 'x'.repeat(43)), 410, 'signUpGone');
  });

  it('uses a code once; a ticket makes one team', async () => {
    const { email, address } = fresh('once');
    const { signUpId, code } = await mailed(email, address);
    const first = await verify(signUpId, code);
    assert.equal(first.statusCode, 200, first.body);
    expectError(await verify(signUpId, code), 400, 'wrongCode', 'code');
    const ticket = (first.json() as { ticket: string }).ticket;
    const [a, b] = await Promise.all([complete(ticket, address), complete(ticket, address)]);
    assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 410]);
    assert.equal(await teamCount(address), 1);
    expectError(await complete(ticket, address), 410, 'signUpGone');
  });

  it('lets the code and the link expire after ten minutes, and the sign-up after a day', async () => {
    const { email, address } = fresh('late');
    const { signUpId, code, token } = await mailed(email, address);
    t.clock.offset = SIGN_UP_CODE_MS + 1;
    expectError(await verify(signUpId, code), 400, 'wrongCode', 'code');
    expectError(await link(signUpId, token), 410, 'signUpGone');

    t.clock.offset = 0;
    const other = fresh('day');
    const ticket = await ticketFor(other.email, other.address);
    t.clock.offset = SIGN_UP_PENDING_MS + 1;
    expectError(await complete(ticket, other.address), 410, 'signUpGone');
    // The next sign-up sweeps out those past their day.
    const next = fresh('sweep');
    assert.equal((await start(next.email, next.address)).statusCode, 202);
    await smtp.next(next.email, /code to start/);
    const left = await t.db.kysely
      .selectFrom('sign_ups')
      .select('email')
      .where('email', 'in', [email, other.email])
      .execute();
    assert.deepEqual(left, []);
  });

  it('counts wrong codes with the lockout; the lock ends the mailed code', async () => {
    const { email, address } = fresh('guess');
    const { signUpId, code } = await mailed(email, address);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i < LOCKOUT_THRESHOLD; i++) expectError(await verify(signUpId, wrong), 400, 'wrongCode');
    expectError(await verify(signUpId, wrong), 429, 'locked');
    // Locked: even the right code is refused, and the lock stays in force.
    expectError(await verify(signUpId, code), 429, 'locked');
    await t.db.kysely.deleteFrom('login_failures').execute();
    expectError(await verify(signUpId, code), 400, 'wrongCode');
    // An id that names nothing is refused like a wrong code.
    expectError(await verify('no-such-sign-up', '123456'), 400, 'wrongCode', 'code');
  });

  it('refuses reserved, offensive, malformed and taken addresses, at the field and while typing', async () => {
    const cases: Array<[string, string]> = [
      ['signup', 'reserved'],
      ['manage', 'reserved'],
      ['well-known', 'reserved'],
      ['api', 'reserved'],
      ['shit-happens', 'offensive'],
      ['Ab', 'invalid'],
      ['-acme', 'invalid'],
      ['a--b', 'invalid'],
      ['acme', 'taken'],
    ];
    for (const [address, problem] of cases) {
      const { email } = fresh('names');
      expectError(await start(email, address), 400, problem, 'address');
      const check = await t.app.inject({
        method: 'GET',
        url: `/account/signup/team?address=${encodeURIComponent(address)}`,
      });
      assert.equal(check.statusCode, 200, check.body);
      assert.deepEqual(check.json(), { address: address.toLowerCase(), available: false, problem });
    }
    const free = await t.app.inject({ method: 'GET', url: '/account/signup/team?address=Free-Name' });
    assert.deepEqual(free.json(), { address: 'free-name', available: true });
    const { email, address } = fresh('names');
    expectError(await start(email, address, { teamName: 'Fuck Co' }), 400, 'offensive', 'teamName');
    expectError(await start(email, address, { teamName: ' ' }), 400, 'invalidName', 'teamName');
    expectError(await start(email, address, { name: '' }), 400, 'invalidName', 'name');
    expectError(await start('not-an-address', address), 400, 'invalidEmail', 'email');
    assert.equal(smtp.received.filter((m) => m.to.includes('names')).length, 0, 'no mail sent');
  });

  it('makes the team with no password for a passkey to follow, signed in', async () => {
    const { email, address } = fresh('pk');
    const ticket = await ticketFor(email, address);
    const done = await post('/account/signup/complete', {
      ticket,
      teamName: 'Rocket Science',
      address,
      method: 'passkey',
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.ok(session(done));
    const user = await t.db.kysely
      .selectFrom('users')
      .select(['password_hash'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    assert.equal(user.password_hash, null);
  });

  it('refuses a breached or mismatched password at its field, and the ticket still works', async () => {
    const { email, address } = fresh('pw');
    const ticket = await ticketFor(email, address);
    expectError(await complete(ticket, address, BREACHED), 400, 'breached', 'password');
    expectError(await complete(ticket, address, 'short'), 400, 'tooShort', 'password');
    expectError(
      await complete(ticket, address, PASSWORD, 'other'),
      400,
      'confirmMismatch',
      'confirmPassword',
    );
    assert.equal((await complete(ticket, address)).statusCode, 200);
  });

  it('lets one of two sign-ups for one address win; the other hears "taken" and may pick another', async () => {
    const address = fresh('race').address;
    const one = await ticketFor(fresh('race').email, address);
    const two = await ticketFor(fresh('race').email, address);
    const [a, b] = await Promise.all([complete(one, address), complete(two, address)]);
    const statuses = [a.statusCode, b.statusCode].sort();
    assert.deepEqual(statuses, [200, 409], `${a.body} ${b.body}`);
    const loser = a.statusCode === 409 ? a : b;
    expectError(loser, 409, 'taken', 'address');
    assert.equal(await teamCount(address), 1);
    // The loser's ticket was not spent: another address finishes it.
    const ticket = a.statusCode === 409 ? one : two;
    assert.equal((await complete(ticket, `${address}-2`)).statusCode, 200);
  });

  it('gives one address asking twice one sign-up, the latest mail working, and one team', async () => {
    const { email, address } = fresh('twice');
    const [a, b] = await Promise.all([start(email, address), start(email, address)]);
    assert.equal(a.statusCode, 202, a.body);
    assert.equal(b.statusCode, 202, b.body);
    assert.equal(a.json().signUpId, b.json().signUpId, 'the same sign-up');
    const mails = [await smtp.next(email, /code to start/), await smtp.next(email, /code to start/)];
    const rows = await t.db.kysely.selectFrom('sign_ups').selectAll().where('email', '=', email).execute();
    assert.equal(rows.length, 1);
    // Exactly one of the two mails works: the one whose secrets the row kept.
    const codes = mails.map((mail) => /^ {4}(\d{6})$/m.exec(mail.text)![1]!);
    const answers = [];
    for (const code of codes) answers.push(await verify(a.json().signUpId as string, code));
    const ok = answers.filter((answer) => answer.statusCode === 200);
    assert.equal(ok.length, 1, answers.map((x) => x.body).join(' '));
    const ticket = (ok[0]!.json() as { ticket: string }).ticket;
    const [x, y] = await Promise.all([complete(ticket, address), complete(ticket, address)]);
    assert.deepEqual([x.statusCode, y.statusCode].sort(), [200, 410]);
    assert.equal(await teamCount(address), 1);
  });

  it('wants a solved proof-of-work challenge, each accepted once', async () => {
    const { email, address } = fresh('proof');
    expectError(await post('/account/signup', details(email, address)), 403, 'challengeRequired');
    const body = { ...details(email, address), proof: await proofFor(t.app) };
    assert.equal((await post('/account/signup', body)).statusCode, 202);
    expectError(await post('/account/signup', body), 403, 'challengeUsed');
    await smtp.next(email, /code to start/);
  });

  it('answers the same whether or not the address is a member somewhere already', async () => {
    const known = await start('ada@acme.test', fresh('enum').address);
    const unknown = await start(fresh('enum').email, fresh('enum').address);
    assert.equal(known.statusCode, 202);
    assert.equal(unknown.statusCode, 202);
    const shape = (response: LightMyRequestResponse) => {
      const body = response.json() as Record<string, unknown>;
      return { ...body, signUpId: typeof body.signUpId };
    };
    assert.deepEqual(shape(known), shape(unknown));
    assert.deepEqual(
      known.cookies.map((c) => c.name),
      unknown.cookies.map((c) => c.name),
    );
    await smtp.next('ada@acme.test', /code to start/);
  });

  it('is rate limited per inbox', async () => {
    const { email, address } = fresh('limit');
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await start(email, address)).statusCode);
    assert.deepEqual(answers, [202, 202, 202, 202, 202, 429]);
  });
});

describe('the checklist route', () => {
  it('is for the team admins only', async () => {
    expectError(await api(t, 'DELETE', '/api/team/checklist'), 401);
    expectError(await api(t, 'DELETE', '/api/team/checklist', who.member), 403);
    // Another team's admin puts away their own team's checklist, never acme's.
    assert.equal((await api(t, 'DELETE', '/api/team/checklist', who.otherAdmin)).statusCode, 204);
    assert.equal((await api(t, 'DELETE', '/api/team/checklist', who.admin)).statusCode, 204);
  });
});

describe('SIGN_UP=off', () => {
  it('answers 404 to every sign-up call and offers no Register address', async () => {
    const off = await createTestApp({ SIGN_UP: 'off', SMTP_URL: smtp.url });
    try {
      const calls = [
        off.app.inject({ method: 'GET', url: '/account/signup/team?address=abc' }),
        ...[
          '/account/signup',
          '/account/signup/verify',
          '/account/signup/link',
          '/account/signup/complete',
        ].map((url) =>
          off.app.inject({
            method: 'POST',
            url,
            headers: { 'content-type': 'application/json' },
            payload: '{}',
          }),
        ),
      ];
      for (const answer of await Promise.all(calls)) assert.equal(answer.statusCode, 404, answer.body);
      const page = await off.app.inject({ method: 'GET', url: '/login/team' });
      assert.doesNotMatch(page.body, /signUpUrl/);
    } finally {
      await off.close();
    }
    const page = await t.app.inject({ method: 'GET', url: '/login/team' });
    assert.match(page.body, /"signUpUrl":"\/signup"/);
    const outside = await createTestApp({ SIGN_UP_URL: 'https://example.test/join' });
    try {
      const body = (await outside.app.inject({ method: 'GET', url: '/login/team' })).body;
      assert.match(body, /"signUpUrl":"https:\/\/example.test\/join"/);
    } finally {
      await outside.close();
    }
  });
});
