/**
 * Joining a team by its domain (routes/join-requests.ts): asking with a code mailed to the address, the
 * admins' approval (an invitation read from the loopback SMTP server and accepted) or decline, the
 * domain's automatic joining, the seat limit, the same answer for every address, the code's rules
 * (single use, expiry, the lockout) and who may call each route.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { JoinRequestList } from '../../src/contract/schemas/join-requests';
import type { TeamDomain } from '../../src/contract/schemas/domains';
import { JOIN_CODE_TTL_MS } from '../../src/contract/team-rules';
import { TestSmtp } from '../support/smtp';
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
  const db = t.db.kysely;
  await db.deleteFrom('rate_limits').execute();
  await db.deleteFrom('login_failures').execute();
  await db.updateTable('teams').set({ seat_limit: 50, local_enabled: 1 }).execute();
  // acme.test is acme's verified domain; here it signs in without single sign-on.
  await db
    .updateTable('team_domains')
    .set({ connection_id: null, auto_join: 0 })
    .where('domain', '=', 'acme.test')
    .execute();
});

let counter = 0;
/** An address at acme's verified domain that no test used before. */
const fresh = (name = 'joiner') => `${name}${++counter}@acme.test`;

const ask = (email: string, extra: Record<string, string> = {}) =>
  api(t, 'POST', '/account/join', undefined, { teamName: 'acme', email, name: 'Jo Joiner', ...extra });
const verify = (requestId: string, code: string) =>
  api(t, 'POST', '/account/join/verify', undefined, { requestId, code });

/** Ask, read the code from the mail, and enter it. */
async function askAndVerify(email = fresh()) {
  const asked = await ask(email);
  assert.equal(asked.statusCode, 202, asked.body);
  const mail = await smtp.next(email, /code/i);
  const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
  const verified = await verify((asked.json() as { requestId: string }).requestId, code);
  assert.equal(verified.statusCode, 202, verified.body);
  return { email, code, requestId: (asked.json() as { requestId: string }).requestId };
}

const pending = async (token = who.owner) =>
  ((await api(t, 'GET', '/api/team/join-requests', token)).json() as JoinRequestList).requests;

const rowsOf = (email: string) =>
  t.db.kysely.selectFrom('join_requests').selectAll().where('email', '=', email).execute();

/** Nothing arrives for `email` within a short wait. */
async function noMail(email: string, subject = /./) {
  await assert.rejects(smtp.next(email, subject, 400));
}

describe('asking to join', () => {
  it('names the team of a verified domain that does not sign in through single sign-on', async () => {
    const found = await api(t, 'GET', '/account/join/team?domain=ACME.test');
    assert.equal(found.statusCode, 200, found.body);
    assert.deepEqual(found.json(), { name: 'acme', displayName: 'Acme' });
    expectError(await api(t, 'GET', '/account/join/team?domain=unknown.test'), 404, 'noTeam');
  });

  it('records the request once the mailed code is entered, for the admins to see', async () => {
    const { email } = await askAndVerify();
    const list = await pending();
    const request = list.find((r) => r.email === email);
    assert.ok(request, 'listed');
    assert.equal(request.name, 'Jo Joiner');
    const [row] = await rowsOf(email);
    assert.equal(row?.state, 'pending');
    assert.equal(row?.code_hash, null, 'the code is gone once used');
    const events = await t.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('target', '=', email)
      .execute();
    assert.deepEqual(
      events.map((e) => e.action),
      ['joinRequest.created'],
    );
  });

  it('keeps the code single use, ten minutes long, and keyed (not stored as sent)', async () => {
    const email = fresh();
    const asked = await ask(email);
    const { requestId } = asked.json() as { requestId: string };
    const code = /\b(\d{6})\b/.exec((await smtp.next(email, /code/i)).text)![1]!;
    const [row] = await rowsOf(email);
    assert.ok(row?.code_hash && !row.code_hash.includes(code));
    t.clock.offset = JOIN_CODE_TTL_MS + 1000;
    expectError(await verify(requestId, code), 400, 'wrongCode', 'code');
    t.clock.offset = 0;
    const again = await askAndVerify(fresh());
    expectError(await verify(again.requestId, again.code), 400, 'wrongCode', 'code');
  });

  it('counts wrong codes with the sign-in lockout of the address', async () => {
    const email = fresh();
    const { requestId } = (await ask(email)).json() as { requestId: string };
    await smtp.next(email, /code/i);
    for (let i = 0; i < 4; i++) expectError(await verify(requestId, '000000'), 400, 'wrongCode');
    expectError(await verify(requestId, '000000'), 429, 'locked');
    const lock = await t.db.kysely
      .selectFrom('login_failures')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();
    assert.ok(lock?.locked_until, 'the address is locked as a sign-in would be');
    // A new request for the locked address is refused at the code too.
    const next = (await ask(email)).json() as { requestId: string };
    const code = /\b(\d{6})\b/.exec((await smtp.next(email, /code/i)).text)![1]!;
    expectError(await verify(next.requestId, code), 429, 'locked');
  });

  it('answers the same for a member, a disabled member, a pending request and a stranger', async () => {
    const disabled = fresh('disabled');
    const id = await addUser(t, { email: disabled, name: 'Dee Disabled', permissions: [] });
    await t.db.kysely.updateTable('users').set({ locked: 1 }).where('id', '=', id).execute();
    const { email: asked } = await askAndVerify();
    const before = await pending();
    for (const email of ['bob@acme.test', disabled, asked]) {
      const answer = await askAndVerify(email);
      assert.ok(answer.requestId);
    }
    assert.deepEqual(await pending(), before, 'nothing new recorded');
    // An address the team cannot be asked from: the same 202 and an id, and no mail.
    const stranger = await ask('someone@elsewhere.test');
    assert.equal(stranger.statusCode, 202);
    assert.equal(Object.keys(stranger.json() as object).join(), 'requestId');
    await noMail('someone@elsewhere.test');
    expectError(
      await verify((stranger.json() as { requestId: string }).requestId, '123456'),
      400,
      'wrongCode',
    );
    // Another team's name with acme's address: the same.
    const other = await ask(fresh(), { teamName: 'globex' });
    assert.equal(other.statusCode, 202);
  });

  it('refuses a name it cannot use, at its field', async () => {
    expectError(await ask(fresh(), { name: '   ' }), 400, 'invalidName', 'name');
  });

  it('is not offered when the domain signs in through single sign-on', async () => {
    const db = t.db.kysely;
    const acme = await db
      .selectFrom('teams')
      .select('id')
      .where('name', '=', 'acme')
      .executeTakeFirstOrThrow();
    const id = randomUUID();
    await db
      .insertInto('team_connections')
      .values({
        id,
        team_id: acme.id,
        protocol: 'saml',
        preset: 'saml',
        name: 'Acme SSO',
        idp_entity_id: 'https://idp.acme.test',
        sso_url: 'https://idp.acme.test/sso',
        certificates: '[]',
        metadata_url: null,
        mapping: '{}',
        idp_initiated: 0,
        enabled: 1,
        default_permissions: '[]',
        issuer: null,
        client_id: null,
        client_secret: null,
        tested_at: null,
        last_test: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    await db
      .updateTable('team_domains')
      .set({ connection_id: id })
      .where('domain', '=', 'acme.test')
      .execute();
    try {
      expectError(await api(t, 'GET', '/account/join/team?domain=acme.test'), 404, 'noTeam');
      const email = fresh();
      assert.equal((await ask(email)).statusCode, 202);
      await noMail(email);
      // Turned off, the connection routes nobody: asking is offered again.
      await db.updateTable('team_connections').set({ enabled: 0 }).where('id', '=', id).execute();
      assert.equal((await api(t, 'GET', '/account/join/team?domain=acme.test')).statusCode, 200);
    } finally {
      await db
        .updateTable('team_domains')
        .set({ connection_id: null })
        .where('domain', '=', 'acme.test')
        .execute();
      await db.deleteFrom('team_connections').where('id', '=', id).execute();
    }
  });
});

describe('approving and declining', () => {
  it('mails an approved person an invitation link that signs them in with a new password', async () => {
    const { email } = await askAndVerify();
    const request = (await pending()).find((r) => r.email === email)!;
    const approved = await api(t, 'POST', `/api/team/join-requests/${request.id}/approve`, who.admin);
    assert.equal(approved.statusCode, 204, approved.body);
    const mail = await smtp.next(email, /welcome/i);
    const url = new URL(mail.link!);
    assert.equal(url.pathname, '/login/acme/invite');
    const accepted = await api(t, 'POST', '/api/invitations/accept', undefined, {
      teamName: 'acme',
      invitationId: url.searchParams.get('id'),
      token: url.searchParams.get('token'),
      name: 'Jo Joiner',
      password: 'a fine new passphrase',
      confirmPassword: 'a fine new passphrase',
    });
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.deepEqual(accepted.json(), { authenticated: true });
    assert.ok(!(await pending()).some((r) => r.email === email), 'no longer waiting');
    const [row] = await rowsOf(email);
    assert.equal(row?.state, 'approved');
    assert.equal(row?.decided_by, who.ids['alan@acme.test']);
    const actions = (
      await t.db.kysely.selectFrom('audit_events').select('action').where('target', '=', email).execute()
    ).map((e) => e.action);
    for (const action of [
      'joinRequest.created',
      'joinRequest.approved',
      'member.invited',
      'invitation.accepted',
    ])
      assert.ok(actions.includes(action), action);
  });

  it('refuses approval with the seat limit when no seat is free', async () => {
    const { email } = await askAndVerify();
    const request = (await pending()).find((r) => r.email === email)!;
    const team = await t.db.kysely
      .selectFrom('teams')
      .select('member_count')
      .where('name', '=', 'acme')
      .executeTakeFirstOrThrow();
    const open = await t.db.kysely
      .selectFrom('invitations')
      .select('id')
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('superseded_at', 'is', null)
      .where('expires_at', '>', t.clock.now())
      .execute();
    await t.db.kysely
      .updateTable('teams')
      .set({ seat_limit: team.member_count + open.length })
      .where('name', '=', 'acme')
      .execute();
    expectError(
      await api(t, 'POST', `/api/team/join-requests/${request.id}/approve`, who.owner),
      409,
      'seatLimit',
    );
    assert.ok(
      (await pending()).some((r) => r.email === email),
      'still waiting',
    );
  });

  it('declines with a neutral note, after which the request is gone', async () => {
    const { email } = await askAndVerify();
    const request = (await pending()).find((r) => r.email === email)!;
    const declined = await api(t, 'POST', `/api/team/join-requests/${request.id}/decline`, who.owner);
    assert.equal(declined.statusCode, 204, declined.body);
    const mail = await smtp.next(email, /request/i);
    assert.ok(!/ada|alan/i.test(mail.text), 'names nobody');
    assert.ok(!(await pending()).some((r) => r.email === email));
    expectError(
      await api(t, 'POST', `/api/team/join-requests/${request.id}/decline`, who.owner),
      404,
      'notFound',
    );
    expectError(
      await api(t, 'POST', `/api/team/join-requests/${request.id}/approve`, who.owner),
      404,
      'notFound',
    );
    const [row] = await rowsOf(email);
    assert.equal(row?.state, 'declined');
  });
});

describe('joining without approval', () => {
  const setAutoJoin = (autoJoin: boolean, token = who.owner) =>
    api(t, 'PUT', '/api/team/domains/acme.test/auto-join', token, { autoJoin });

  it('mails the invitation at once when the domain lets people join', async () => {
    const on = await setAutoJoin(true);
    assert.equal(on.statusCode, 200, on.body);
    assert.equal((on.json() as TeamDomain).autoJoin, true);
    const { email } = await askAndVerify();
    const mail = await smtp.next(email, /welcome/i);
    assert.match(mail.link!, /\/login\/acme\/invite\?/);
    assert.ok(!(await pending()).some((r) => r.email === email));
    const [row] = await rowsOf(email);
    assert.equal(row?.state, 'approved');
    assert.equal(row?.decided_by, null);
  });

  it('lets the request wait for an admin when no seat is free', async () => {
    await setAutoJoin(true);
    await t.db.kysely.updateTable('teams').set({ seat_limit: 1 }).where('name', '=', 'acme').execute();
    const { email } = await askAndVerify();
    await noMail(email, /welcome/i);
    assert.ok(
      (await pending()).some((r) => r.email === email),
      'waiting',
    );
  });

  it('is set by the team’s admins only, on verified domains', async () => {
    expectError(await setAutoJoin(true, who.member), 403);
    expectError(await setAutoJoin(true, who.otherAdmin), 404, 'notFound');
    assert.equal((await setAutoJoin(true, who.admin)).statusCode, 200);
    const response = await api(t, 'PUT', '/api/team/domains/acme.test/auto-join', undefined, {
      autoJoin: false,
    });
    assert.equal(response.statusCode, 401);
  });
});

describe('who may see and decide the requests', () => {
  it('answers nobody 401, a member 403, another team’s admin as if there were none', async () => {
    const { email } = await askAndVerify();
    const request = (await pending()).find((r) => r.email === email)!;
    const routes = [
      ['GET', '/api/team/join-requests'],
      ['POST', `/api/team/join-requests/${request.id}/approve`],
      ['POST', `/api/team/join-requests/${request.id}/decline`],
    ] as const;
    for (const [method, url] of routes) {
      assert.equal((await api(t, method, url)).statusCode, 401, url);
      assert.equal((await api(t, method, url, who.member)).statusCode, 403, url);
    }
    assert.deepEqual(await pending(who.otherAdmin), []);
    expectError(await api(t, 'POST', `/api/team/join-requests/${request.id}/approve`, who.otherAdmin), 404);
    expectError(await api(t, 'POST', `/api/team/join-requests/${request.id}/decline`, who.otherAdmin), 404);
    await noMail(email);
    assert.ok(
      (await pending()).some((r) => r.email === email),
      'untouched',
    );
    assert.equal(
      (await api(t, 'POST', `/api/team/join-requests/${request.id}/decline`, who.admin)).statusCode,
      204,
    );
  });
});
