import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { INVITATION_TTL_MS } from '../../src/contract/team-rules';
import { sha256 } from '../../demo/server/lib/crypto';
import { signInAtProvider } from '../support/idp';
import { TestSmtp } from '../support/smtp';
import { codeFor, cookiesFrom, withCookies } from '../support/two-step';
import { addUser, api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';

let smtp: TestSmtp;
let t: TestApp;
let who: Callers;
before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://portal.example.test' });
  who = await callers(t);
});
after(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  t.clock.offset = 0;
  who = await callers(t);
  await t.db.kysely.deleteFrom('rate_limits').execute();
  await t.db.kysely.updateTable('teams').set({ seat_limit: 50, local_enabled: 1 }).execute();
});

let counter = 0;
/** An address no test used before. */
const fresh = (name = 'new') => `${name}${++counter}@example.test`;

const invite = (token: string | undefined, body: unknown, headers?: Record<string, string>) =>
  api(t, 'POST', '/api/team/invitations', token, body, headers);

interface Link {
  id: string;
  token: string;
  url: URL;
}

/** Ada invites an address; the link from the mail that arrives. */
async function invited(email = fresh(), permissions = ['EDITOR'], headers?: Record<string, string>) {
  const response = await invite(who.owner, { email, permissions }, headers);
  assert.equal(response.statusCode, 201, response.body);
  const mail = await smtp.next(email.toLowerCase(), /invit|einge/i);
  const url = new URL(mail.link!);
  const link: Link = { id: url.searchParams.get('id')!, token: url.searchParams.get('token')!, url };
  return { response, mail, link, email };
}

const inspect = (link: Pick<Link, 'id' | 'token'>, team = 'acme') =>
  api(t, 'POST', '/api/invitations/inspect', undefined, {
    teamName: team,
    invitationId: link.id,
    token: link.token,
  });

const accept = (link: Pick<Link, 'id' | 'token'>, fields: Record<string, string> = {}) =>
  api(t, 'POST', '/api/invitations/accept', undefined, {
    teamName: 'acme',
    invitationId: link.id,
    token: link.token,
    name: 'Nora New',
    password: 'a fine new passphrase',
    confirmPassword: 'a fine new passphrase',
    ...fields,
  });

function expectGone(response: LightMyRequestResponse, reason: string) {
  assert.equal(response.statusCode, 410, response.body);
  assert.equal(response.json().code, 'gone');
  assert.equal(response.json().reason, reason, response.body);
}

interface Seats {
  used: number;
  limit: number;
  members: number;
  pending: number;
}
const seats = async () => (await api(t, 'GET', '/api/team', who.owner)).json().seats as Seats;

describe('who may manage invitations', () => {
  it('refuses without a token (401) and a member (403 notAdmin) on every admin call', async () => {
    const { response } = await invited();
    const id = response.json().id as string;
    const calls = [
      ['GET', '/api/team/invitations', undefined],
      ['POST', '/api/team/invitations', { email: fresh(), permissions: ['SPOKE'] }],
      ['POST', `/api/team/invitations/${id}/resend`, undefined],
      ['DELETE', `/api/team/invitations/${id}`, undefined],
    ] as const;
    for (const [method, url, body] of calls) {
      expectError(await api(t, method, url, undefined, body), 401);
      expectError(await api(t, method, url, who.member, body), 403, 'notAdmin');
    }
    expectGone(await inspect({ id, token: 'x' }), 'invalid');
  });

  it("answers another team's admin 404 for acme's invitations, and lists only their own", async () => {
    const { response, link } = await invited();
    const id = response.json().id as string;
    expectError(await api(t, 'POST', `/api/team/invitations/${id}/resend`, who.otherAdmin), 404);
    expectError(await api(t, 'DELETE', `/api/team/invitations/${id}`, who.otherAdmin), 404);
    const theirs = await api(t, 'GET', '/api/team/invitations', who.otherAdmin);
    assert.equal(theirs.statusCode, 200);
    assert.ok(!theirs.json().invitations.some((i: { id: string }) => i.id === id));
    assert.equal((await inspect(link)).statusCode, 200, 'the invitation still works');
  });
});

describe('POST /api/team/invitations', () => {
  it('invites with the permissions given and mails a link to the portal (token stored hashed)', async () => {
    const email = fresh('Mixed');
    const { response, mail, link } = await invited(email.toUpperCase(), ['EDITOR', 'APPROVER']);
    const body = response.json();
    assert.equal(body.email, email.toLowerCase());
    assert.deepEqual(body.permissions, ['EDITOR', 'APPROVER']);
    assert.deepEqual(body.invitedBy, { name: 'Ada Lovelace', email: 'ada@acme.test' });
    assert.equal(Date.parse(body.expiresAt) - Date.parse(body.sentAt), INVITATION_TTL_MS);
    assert.equal(link.url.origin + link.url.pathname, 'https://portal.example.test/login/acme/invite');
    assert.equal(link.id, body.id);
    assert.match(link.token, /^[A-Za-z0-9_-]{43}$/, '256 bits');
    assert.match(mail.subject, /Ada Lovelace invited you to Acme/);
    assert.match(mail.text, /ada@acme\.test/);
    assert.match(mail.html, /Accept the invitation/);
    const row = await t.db.kysely
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.token_hash, sha256(link.token));
    assert.ok(!JSON.stringify(row).includes(link.token), 'the token itself is not stored');
  });

  it("writes the mail in the inviter's language", async () => {
    const { mail } = await invited(fresh(), ['SPOKE'], { 'accept-language': 'de-DE,de;q=0.9' });
    assert.match(mail.subject, /hat Sie zu Acme bei .* eingeladen/);
    assert.match(mail.text, /Einladung annehmen/);
  });

  it('refuses a bad address or permission at its field (400 invalidEmail / invalidPermission)', async () => {
    for (const email of ['not-an-address', '', 'a@', 'x'.repeat(400) + '@example.test'])
      expectError(await invite(who.owner, { email, permissions: ['SPOKE'] }), 400, 'invalidEmail', 'email');
    for (const permissions of [[], ['ROOT'], ['SPOKE', 'SPOKE'], 'SPOKE'])
      expectError(
        await invite(who.owner, { email: fresh(), permissions }),
        400,
        'invalidPermission',
        'permissions',
      );
  });

  it('lets only an owner invite an owner (403 notOwner)', async () => {
    expectError(await invite(who.admin, { email: fresh(), permissions: ['OWNER'] }), 403, 'notOwner');
    assert.equal((await invite(who.admin, { email: fresh(), permissions: ['ADMIN'] })).statusCode, 201);
    assert.equal((await invite(who.owner, { email: fresh(), permissions: ['OWNER'] })).statusCode, 201);
  });

  it('says when the address is a member already or has a pending invitation (409)', async () => {
    expectError(
      await invite(who.owner, { email: 'BOB@acme.test', permissions: ['SPOKE'] }),
      409,
      'alreadyMember',
      'email',
    );
    const email = fresh();
    assert.equal((await invite(who.owner, { email, permissions: ['SPOKE'] })).statusCode, 201);
    expectError(await invite(who.admin, { email, permissions: ['SPOKE'] }), 409, 'alreadyInvited', 'email');
  });

  it('counts pending invitations as seats and refuses beyond the limit (409 seatLimit)', async () => {
    const before = await seats();
    await t.db.kysely
      .updateTable('teams')
      .set({ seat_limit: before.used + 1 })
      .where('name', '=', 'acme')
      .execute();
    assert.equal((await invite(who.owner, { email: fresh(), permissions: ['SPOKE'] })).statusCode, 201);
    const after = await seats();
    assert.equal(after.pending, before.pending + 1);
    assert.equal(after.used, after.limit);
    expectError(
      await invite(who.owner, { email: fresh(), permissions: ['SPOKE'] }),
      409,
      'seatLimit',
      'email',
    );
  });

  it('gives the last seat to exactly one of two parallel invitations', async () => {
    const { used } = await seats();
    await t.db.kysely
      .updateTable('teams')
      .set({ seat_limit: used + 1 })
      .where('name', '=', 'acme')
      .execute();
    const answers = await Promise.all([
      invite(who.owner, { email: fresh('race'), permissions: ['SPOKE'] }),
      invite(who.admin, { email: fresh('race'), permissions: ['SPOKE'] }),
    ]);
    assert.deepEqual(
      answers.map((a) => a.statusCode).sort(),
      [201, 409],
      answers.map((a) => a.body).join(' '),
    );
    assert.equal(answers.find((a) => a.statusCode === 409)!.json().code, 'seatLimit');
    const now = await seats();
    assert.equal(now.used, now.limit);
  });
});

describe('GET /api/team/invitations', () => {
  it('lists open invitations newest first, with their inviter', async () => {
    const first = await invited();
    t.clock.advance(60_000);
    const second = await invited();
    const list = (await api(t, 'GET', '/api/team/invitations', who.admin)).json().invitations as Array<{
      id: string;
      invitedBy: unknown;
    }>;
    const ids = list.map((i) => i.id);
    assert.ok(ids.indexOf(second.link.id) < ids.indexOf(first.link.id));
    assert.deepEqual(list.find((i) => i.id === first.link.id)!.invitedBy, {
      name: 'Ada Lovelace',
      email: 'ada@acme.test',
    });
  });
});

describe('resend and revoke', () => {
  it('resends with a new link and seven days from now; the old link is dead (superseded)', async () => {
    const { link, email } = await invited();
    t.clock.advance(3 * 24 * 3600_000);
    who = await callers(t);
    const sent = t.clock.now();
    const response = await api(t, 'POST', `/api/team/invitations/${link.id}/resend`, who.admin);
    assert.equal(response.statusCode, 200, response.body);
    const renewed = response.json();
    assert.notEqual(renewed.id, link.id);
    assert.ok(Date.parse(renewed.sentAt) >= sent);
    assert.equal(Date.parse(renewed.expiresAt) - Date.parse(renewed.sentAt), INVITATION_TTL_MS);
    assert.deepEqual(renewed.invitedBy, { name: 'Alan Admin', email: 'alan@acme.test' });
    const mail = await smtp.next(email, /invit/i);
    const url = new URL(mail.link!);
    const next = { id: url.searchParams.get('id')!, token: url.searchParams.get('token')! };
    assert.equal(next.id, renewed.id);
    expectGone(await inspect(link), 'superseded');
    expectGone(await accept(link), 'superseded');
    assert.equal((await inspect(next)).statusCode, 200);
    const ids = (await api(t, 'GET', '/api/team/invitations', who.owner))
      .json()
      .invitations.map((i: { id: string }) => i.id);
    assert.ok(ids.includes(renewed.id) && !ids.includes(link.id));
    expectError(await api(t, 'POST', `/api/team/invitations/${link.id}/resend`, who.admin), 404);
  });

  it('revokes: the link says so, the seat is free, a second revoke is 404', async () => {
    const { link } = await invited();
    const before = await seats();
    const response = await api(t, 'DELETE', `/api/team/invitations/${link.id}`, who.admin);
    assert.equal(response.statusCode, 204, response.body);
    assert.equal(response.body, '');
    expectGone(await inspect(link), 'revoked');
    assert.equal((await seats()).pending, before.pending - 1);
    expectError(await api(t, 'DELETE', `/api/team/invitations/${link.id}`, who.admin), 404);
    expectError(await api(t, 'DELETE', '/api/team/invitations/no-such-id', who.admin), 404);
  });
});

describe('expiry', () => {
  it('expires seven days after it was sent, by the clock: the link says so, the seat is free', async () => {
    const { link } = await invited();
    // Only this invitation is open, so the seats show what its expiry frees.
    await t.db.kysely.updateTable('invitations').set({ revoked_at: 1 }).where('id', '!=', link.id).execute();
    // The clock follows real time too: a minute's margin, so a slow machine does not expire it early.
    t.clock.advance(INVITATION_TTL_MS - 60_000);
    assert.equal((await inspect(link)).statusCode, 200);
    who = await callers(t);
    const before = await seats();
    t.clock.advance(60_000);
    expectGone(await inspect(link), 'expired');
    expectGone(await accept(link), 'expired');
    assert.deepEqual([before.pending, (await seats()).pending], [1, 0]);
    // Still listed for its admins, who may resend it: then it works again, with a new link.
    const listed = (await api(t, 'GET', '/api/team/invitations', who.owner)).json().invitations;
    assert.ok(listed.some((i: { id: string }) => i.id === link.id));
    const resent = await api(t, 'POST', `/api/team/invitations/${link.id}/resend`, who.owner);
    assert.equal(resent.statusCode, 200, resent.body);
  });
});

describe('POST /api/invitations/inspect', () => {
  it('tells the invitee the address, the team and how they may join', async () => {
    const { link, email } = await invited();
    const response = await inspect(link);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), {
      email,
      team: { name: 'acme', displayName: 'Acme' },
      methods: { local: true, google: true, azure: true, auth0: true, apple: true },
      auth0DisplayName: 'Acme SSO',
    });
  });

  it('says only "invalid" for a wrong token, an unknown id or another team', async () => {
    const { link } = await invited();
    const other = link.token.endsWith('A') ? 'B' : 'A';
    expectGone(await inspect({ id: link.id, token: `${link.token.slice(0, -1)}${other}` }), 'invalid');
    expectGone(await inspect({ id: 'nope', token: link.token }), 'invalid');
    expectGone(await inspect(link, 'globex'), 'invalid');
    await t.db.kysely.updateTable('invitations').set({ revoked_at: 1 }).where('id', '=', link.id).execute();
    expectGone(await inspect({ id: link.id, token: 'wrong' }), 'invalid');
  });

  it('limits the calls per address (429)', async () => {
    const { link } = await invited();
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 61; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/api/invitations/inspect',
        remoteAddress: '198.51.100.7',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ teamName: 'acme', invitationId: link.id, token: link.token }),
      });
    }
    assert.equal(last!.statusCode, 429);
    assert.ok(last!.headers['retry-after']);
  });
});

describe('POST /api/invitations/accept', () => {
  it('makes the invitee a member with the invited permissions and signs them in', async () => {
    const { link, email } = await invited(fresh(), ['APPROVER', 'SPOKE']);
    const before = await seats();
    const response = await accept(link, { name: '  Nora New  ' });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { authenticated: true });
    const session = response.cookies.find((c) => c.name === 'acct_session');
    const xsrf = response.cookies.find((c) => c.name === 'XSRF-TOKEN');
    assert.ok(session?.httpOnly && xsrf && xsrf.value.startsWith('s.'), 'a session and its XSRF cookie');
    const check = await t.app.inject({
      method: 'POST',
      url: '/account/check',
      headers: { cookie: `acct_session=${session.value}`, 'x-xsrf-token': xsrf.value },
    });
    assert.equal(check.json().authenticated, true);
    const user = await t.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    assert.equal(user.name, 'Nora New');
    assert.ok(user.last_sign_in_at !== null && user.password_hash !== null);
    const permissions = await t.db.kysely
      .selectFrom('user_permissions')
      .select('permission')
      .where('user_id', '=', user.id)
      .execute();
    assert.deepEqual(permissions.map((p) => p.permission).sort(), ['APPROVER', 'SPOKE']);
    const after = await seats();
    assert.deepEqual(
      [after.members, after.pending, after.used],
      [before.members + 1, before.pending - 1, before.used],
    );
    const login = await api(t, 'POST', '/account/login', undefined, {
      teamName: 'acme',
      email,
      password: 'a fine new passphrase',
    });
    assert.equal(login.statusCode, 200, 'the password works');
    expectGone(await accept(link), 'used');
    expectGone(await inspect(link), 'used');
    const list = (await api(t, 'GET', '/api/team/invitations', who.owner)).json().invitations;
    assert.ok(!list.some((i: { id: string }) => i.id === link.id), 'no longer pending');
  });

  it('applies the name rule and the password policy of reset, each at its field', async () => {
    const { link } = await invited();
    expectError(await accept(link, { name: '   ' }), 400, 'invalidName', 'name');
    expectError(await accept(link, { name: 'x'.repeat(51) }), 400, 'invalidName', 'name');
    expectError(await accept(link, { name: 'a\u0007b' }), 400, 'invalidName', 'name');
    expectError(
      await accept(link, { password: 'short', confirmPassword: 'short' }),
      400,
      'tooShort',
      'password',
    );
    expectError(
      await accept(link, { password: 'password', confirmPassword: 'password' }),
      400,
      'common',
      'password',
    );
    expectError(
      await accept(link, { confirmPassword: 'something else' }),
      400,
      'confirmMismatch',
      'confirmPassword',
    );
    assert.equal((await inspect(link)).statusCode, 200, 'nothing was used up');
  });

  it('lets exactly one of two parallel accepts win', async () => {
    const { link, email } = await invited();
    const answers = await Promise.all([accept(link), accept(link, { name: 'Other Name' })]);
    assert.deepEqual(
      answers.map((a) => a.statusCode).sort(),
      [200, 410],
      answers.map((a) => a.body).join(' '),
    );
    assert.equal(answers.find((a) => a.statusCode === 410)!.json().reason, 'used');
    const users = await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
    assert.equal(users.length, 1);
  });

  it('refuses when the address joined meanwhile (409 alreadyMember), and the link stays usable', async () => {
    const { link, email } = await invited();
    const id = await addUser(t, { email, name: 'Joined Early', permissions: ['SPOKE'] });
    expectError(await accept(link), 409, 'alreadyMember');
    await t.db.kysely.deleteFrom('users').where('id', '=', id).execute();
    assert.equal((await accept(link)).statusCode, 200);
  });

  it('refuses when the seat limit was lowered below the team meanwhile (409 seatLimit)', async () => {
    const { link } = await invited();
    await t.db.kysely.updateTable('teams').set({ seat_limit: 1 }).where('name', '=', 'acme').execute();
    expectError(await accept(link), 409, 'seatLimit');
  });

  it('refuses a password when the team offers no password sign-in (400 methodOff)', async () => {
    const { link } = await invited();
    await t.db.kysely.updateTable('teams').set({ local_enabled: 0 }).where('name', '=', 'acme').execute();
    expectError(await accept(link), 400, 'methodOff');
    assert.equal((await inspect(link)).json().methods.local, false);
  });
});

/** With acme's "require two-step sign-in" on for the test. */
async function requiringTwoStep(test: () => Promise<void>) {
  await t.db.kysely.updateTable('teams').set({ require_two_step: 1 }).where('name', '=', 'acme').execute();
  try {
    await test();
  } finally {
    await t.db.kysely.updateTable('teams').set({ require_two_step: 0 }).where('name', '=', 'acme').execute();
  }
}

/**
 * A pending sign-in (the answer's cookies) finished as a required enrolment: the app set up, the
 * recovery codes shown, then the session. Checks there was no session before.
 */
async function finishEnrolment(response: LightMyRequestResponse, email: string) {
  assert.equal(
    response.cookies.find((c) => c.name === 'acct_session' && c.value),
    undefined,
    'no session',
  );
  const jar = cookiesFrom(response);
  assert.ok(jar.cookie.includes('acct_two_step='), 'a pending sign-in');
  const key = await withCookies(t, jar, '/account/two-step/enrol');
  assert.equal(key.statusCode, 200, key.body);
  const done = await withCookies(t, jar, '/account/two-step/enrol/confirm', {
    code: codeFor(t, (key.json() as { secret: string }).secret),
  });
  assert.equal(done.statusCode, 200, done.body);
  assert.equal((done.json() as { recoveryCodes: string[] }).recoveryCodes.length, 10);
  const session = cookiesFrom(done);
  assert.equal((await withCookies(t, session, '/account/check')).json().authenticated, true);
  const totp = await t.db.kysely
    .selectFrom('totp_secrets')
    .innerJoin('users', 'users.id', 'totp_secrets.user_id')
    .select('totp_secrets.confirmed_at')
    .where('users.email', '=', email)
    .executeTakeFirst();
  assert.ok(totp?.confirmed_at, 'two-step sign-in is on');
}

describe('joining a team that requires two-step sign-in', () => {
  it('with a password: no session until the new member has set up the app', async () => {
    await requiringTwoStep(async () => {
      const { link, email } = await invited();
      const response = await accept(link);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { twoStep: { methods: [], enrol: true } });
      expectGone(await inspect(link), 'used');
      await finishEnrolment(response, email);
    });
  });
});

describe('joining through a provider', () => {
  /** Start a Google sign-in from an invitation link, as the element does (JSON call, then navigation). */
  async function startWith(link: Pick<Link, 'id' | 'token'>, returnUrl?: string) {
    const call = await api(t, 'POST', '/account/google/start', undefined, {
      teamName: 'acme',
      invitation: { id: link.id, token: link.token },
      ...(returnUrl ? { returnUrl } : {}),
    });
    return call;
  }

  async function roundTrip(link: Pick<Link, 'id' | 'token'>, account: string, before?: () => Promise<void>) {
    const call = await startWith(link);
    assert.equal(call.statusCode, 200, call.body);
    const location = new URL(call.json().location as string);
    const started = await t.app.inject({ method: 'GET', url: `${location.pathname}${location.search}` });
    assert.equal(started.statusCode, 303, started.body);
    const browser = started.cookies.find((c) => c.name === 'acct_oauth')!.value;
    const back = await signInAtProvider(
      String(started.headers.location),
      account,
      `${t.config.publicUrl}/account/callback/`,
    );
    await before?.();
    return t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: `acct_oauth=${browser}` },
    });
  }

  it('makes the invitee a member with the provider linked and signs them in', async () => {
    const { link } = await invited('zoe@google.example', ['SPOKE']);
    const response = await roundTrip(link, 'zoe');
    assert.equal(response.statusCode, 303, response.body);
    assert.equal(response.headers.location, '/manage');
    assert.ok(response.cookies.find((c) => c.name === 'acct_session'));
    const user = await t.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'zoe@google.example')
      .executeTakeFirstOrThrow();
    assert.equal(user.password_hash, null);
    assert.equal(user.name, 'zoe');
    const linked = await t.db.kysely
      .selectFrom('external_accounts')
      .select(['provider', 'subject'])
      .where('user_id', '=', user.id)
      .execute();
    assert.deepEqual(linked, [{ provider: 'Google', subject: 'google-zoe' }]);
    expectGone(await inspect(link), 'used');
  });

  it('stops at the enrolment when the team requires two-step sign-in, with no session', async () => {
    await requiringTwoStep(async () => {
      const { link } = await invited('wes@google.example', ['SPOKE']);
      const response = await roundTrip(link, 'wes');
      assert.equal(response.statusCode, 303, response.body);
      assert.equal(response.headers.location, '/login/acme?TwoStep=enrol&ReturnUrl=%2Fmanage');
      await finishEnrolment(response, 'wes@google.example');
    });
  });

  it('refuses an account whose e-mail is not the invited one (ForbiddenSignup); the invitation stays open', async () => {
    const { link } = await invited();
    const response = await roundTrip(link, 'yan');
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/login/acme?Error=ForbiddenSignup');
    assert.equal((await inspect(link)).statusCode, 200);
  });

  it('says InvitationGone when the invitation was revoked during the round trip', async () => {
    const { link } = await invited('xia@google.example');
    const response = await roundTrip(link, 'xia', async () => {
      await api(t, 'DELETE', `/api/team/invitations/${link.id}`, who.owner);
    });
    assert.equal(response.headers.location, '/login/acme?Error=InvitationGone');
    const user = await t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'xia@google.example')
      .execute();
    assert.deepEqual(user, []);
  });

  it('refuses to start with a link that does not work (410)', async () => {
    const { link } = await invited();
    expectGone(await startWith({ id: link.id, token: 'wrong' }), 'invalid');
    await api(t, 'DELETE', `/api/team/invitations/${link.id}`, who.owner);
    expectGone(await startWith(link), 'revoked');
  });
});
