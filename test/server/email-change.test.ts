import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { TestSmtp } from '../support/smtp';
import { addUser } from '../support/team-admin';
import { createTestApp, tokenFor, type TestApp } from '../support/test-server';

let smtp: TestSmtp;
let t: TestApp;
before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url });
});
after(async () => {
  await t.close();
  await smtp.close();
});

async function addPasswordUser(email: string, name: string, team = 'acme') {
  const id = await addUser(t, { email, name, permissions: ['SPOKE'], team });
  const hash = await t.app.services.hasher.hash(DEMO_PASSWORD);
  await t.db.kysely.updateTable('users').set({ password_hash: hash }).where('id', '=', id).execute();
  return id;
}

const post = (url: string, body: unknown, token?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify(body),
  });

const login = (email: string, password = DEMO_PASSWORD, team = 'acme') =>
  post('/account/login', { teamName: team, email, password });

function linkParts(link: string | null) {
  assert.ok(link);
  const url = new URL(link);
  assert.equal(url.pathname, '/manage/email');
  return Object.fromEntries(url.searchParams) as { change: string; token?: string; undo?: string };
}

describe('POST /api/user/email', () => {
  it('mails the new address a link and the old one an undo; the address changes when confirmed', async () => {
    await addPasswordUser('hana@acme.test', 'Hana');
    const { accessToken } = await tokenFor(t.app, 'hana@acme.test');
    const asked = await post(
      '/api/user/email',
      { newEmail: 'Hana.New@Example.test', password: DEMO_PASSWORD },
      accessToken,
    );
    assert.equal(asked.statusCode, 202, asked.body);
    assert.equal(asked.json().pendingEmail, 'hana.new@example.test');
    const confirmMail = await smtp.next('hana.new@example.test', /Confirm your new/);
    const noticeMail = await smtp.next('hana@acme.test', /being changed/);
    assert.match(noticeMail.text, /hana\.new@example\.test/);
    // Not changed yet: the old address still signs in.
    assert.equal((await login('hana@acme.test')).statusCode, 200);
    const link = linkParts(confirmMail.link);
    const confirmed = await post('/api/user/email/confirm', { change: link.change, token: link.token });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal(confirmed.json().email, 'hana.new@example.test');
    assert.equal((await login('hana.new@example.test')).statusCode, 200);
    assert.equal((await login('hana@acme.test')).statusCode, 401);
    // Single use.
    assert.equal(
      (await post('/api/user/email/confirm', { change: link.change, token: link.token })).statusCode,
      410,
    );

    // The old address's undo gives it back and ends every session.
    const undo = linkParts(noticeMail.link);
    const undone = await post('/api/user/email/undo', { change: undo.change, token: undo.undo });
    assert.equal(undone.statusCode, 200, undone.body);
    assert.equal(undone.json().email, 'hana@acme.test');
    assert.equal((await login('hana@acme.test')).statusCode, 200);
    assert.equal(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/user/permissions',
          headers: { authorization: `Bearer ${accessToken}` },
        })
      ).statusCode,
      401,
    );
    assert.equal(
      (await post('/api/user/email/undo', { change: undo.change, token: undo.undo })).statusCode,
      410,
    );
  });

  it('needs the current password; answers a taken address as any other, refusing it at confirmation', async () => {
    await addPasswordUser('ivo@acme.test', 'Ivo');
    const { accessToken } = await tokenFor(t.app, 'ivo@acme.test');
    const none = await post('/api/user/email', { newEmail: 'ivo2@example.test' }, accessToken);
    assert.equal(none.statusCode, 400);
    assert.equal(none.json().code, 'passwordRequired');
    const wrong = await post(
      '/api/user/email',
      { newEmail: 'ivo2@example.test', password: 'nope-nope' },
      accessToken,
    );
    assert.equal(wrong.statusCode, 400);
    assert.deepEqual([wrong.json().code, wrong.json().field], ['invalidPassword', 'password']);
    const taken = await post(
      '/api/user/email',
      { newEmail: 'ada@acme.test', password: DEMO_PASSWORD },
      accessToken,
    );
    // The same answer as for a free address: a member learns nothing of who is in the team.
    assert.equal(taken.statusCode, 202, taken.body);
    assert.deepEqual(taken.json(), { pendingEmail: 'ada@acme.test' });
    const takenMail = await smtp.next('ada@acme.test', /Confirm your new/);
    await smtp.next('ivo@acme.test', /being changed/);
    const takenLink = linkParts(takenMail.link);
    const refused = await post('/api/user/email/confirm', {
      change: takenLink.change,
      token: takenLink.token,
    });
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().code, 'emailTaken');
    assert.doesNotMatch(refused.body, /Ada|Lovelace/);
    assert.equal((await login('ivo@acme.test')).statusCode, 200, 'the address did not change');
    const same = await post(
      '/api/user/email',
      { newEmail: 'ivo@acme.test', password: DEMO_PASSWORD },
      accessToken,
    );
    assert.equal(same.json().code, 'sameEmail');
    const bad = await post(
      '/api/user/email',
      { newEmail: 'not an address', password: DEMO_PASSWORD },
      accessToken,
    );
    assert.deepEqual([bad.statusCode, bad.json().code], [400, 'invalidEmail']);
    // Another team's address is free to take.
    const other = await post(
      '/api/user/email',
      { newEmail: 'carol@globex.test', password: DEMO_PASSWORD },
      accessToken,
    );
    assert.equal(other.statusCode, 202);
    assert.equal(
      (await post('/api/user/email', { newEmail: 'x@example.test', password: 'y' })).statusCode,
      401,
    );
  });

  it('lets a user without a password change it only right after signing in', async () => {
    // Bob signs in with Google only; the token's session began just now.
    const { accessToken } = await tokenFor(t.app, 'bob@acme.test');
    assert.equal(
      (await post('/api/user/email', { newEmail: 'bob2@example.test' }, accessToken)).statusCode,
      202,
    );
    t.clock.advance(6 * 60_000);
    try {
      const late = await post('/api/user/email', { newEmail: 'bob3@example.test' }, accessToken);
      assert.equal(late.statusCode, 403);
      assert.equal(late.json().code, 'reauthRequired');
    } finally {
      t.clock.offset = 0;
    }
  });

  it('a newer request supersedes the older link; an expired link is gone', async () => {
    await addPasswordUser('jun@acme.test', 'Jun');
    const { accessToken } = await tokenFor(t.app, 'jun@acme.test');
    await post('/api/user/email', { newEmail: 'jun1@example.test', password: DEMO_PASSWORD }, accessToken);
    const first = linkParts((await smtp.next('jun1@example.test', /Confirm/)).link);
    await post('/api/user/email', { newEmail: 'jun2@example.test', password: DEMO_PASSWORD }, accessToken);
    const second = linkParts((await smtp.next('jun2@example.test', /Confirm/)).link);
    assert.equal(
      (await post('/api/user/email/confirm', { change: first.change, token: first.token })).statusCode,
      410,
    );
    assert.equal(
      (await post('/api/user/email/confirm', { change: second.change, token: 'wrong' })).statusCode,
      410,
    );
    t.clock.advance(61 * 60_000);
    try {
      assert.equal(
        (await post('/api/user/email/confirm', { change: second.change, token: second.token })).statusCode,
        410,
      );
    } finally {
      t.clock.offset = 0;
    }
  });
});

describe('the pending change: GET and DELETE /api/user/email, POST /api/user/email/check', () => {
  const get = (token?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/user/email',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const cancel = (token?: string) =>
    t.app.inject({
      method: 'DELETE',
      url: '/api/user/email',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const check = (body: unknown) => post('/api/user/email/check', body);

  it('shows the pending change to its user only, who can cancel it; its links are then gone', async () => {
    await addPasswordUser('kim@acme.test', 'Kim');
    await addPasswordUser('lou@acme.test', 'Lou');
    const kim = (await tokenFor(t.app, 'kim@acme.test')).accessToken;
    const lou = (await tokenFor(t.app, 'lou@acme.test')).accessToken;
    const carol = (await tokenFor(t.app, 'carol@globex.test', 'globex')).accessToken;

    assert.equal((await get()).statusCode, 401);
    assert.equal((await cancel()).statusCode, 401);
    assert.deepEqual((await get(kim)).json(), { pending: null });

    await post('/api/user/email', { newEmail: 'kim.new@example.test', password: DEMO_PASSWORD }, kim);
    const confirm = linkParts((await smtp.next('kim.new@example.test', /Confirm/)).link);
    const undo = linkParts((await smtp.next('kim@acme.test', /being changed/)).link);
    const status = (await get(kim)).json() as { pending: { newEmail: string; expiresAt: string } };
    assert.equal(status.pending.newEmail, 'kim.new@example.test');
    assert.ok(Date.parse(status.pending.expiresAt) > Date.now() + 50 * 60_000);
    // Another member, and another team's admin, see nothing of it and cancel nothing.
    assert.deepEqual((await get(lou)).json(), { pending: null });
    assert.equal((await cancel(lou)).statusCode, 404);
    assert.equal((await cancel(carol)).statusCode, 404);

    // Both links are good until the change is cancelled; checking them uses neither.
    const confirmCheck = { change: confirm.change, token: confirm.token, action: 'confirm' };
    const undoCheck = { change: undo.change, token: undo.undo, action: 'undo' };
    assert.equal((await check(confirmCheck)).statusCode, 204);
    assert.equal((await check(confirmCheck)).statusCode, 204);
    assert.equal((await check(undoCheck)).statusCode, 204);
    assert.equal((await check({ ...confirmCheck, token: 'wrong' })).statusCode, 410);
    assert.equal((await check({ ...confirmCheck, action: 'undo' })).statusCode, 410);

    assert.equal((await cancel(kim)).statusCode, 204);
    assert.deepEqual((await get(kim)).json(), { pending: null });
    assert.equal((await cancel(kim)).statusCode, 404);
    assert.equal((await check(confirmCheck)).statusCode, 410);
    assert.equal((await check(undoCheck)).statusCode, 410);
    const confirmed = await post('/api/user/email/confirm', { change: confirm.change, token: confirm.token });
    assert.equal(confirmed.statusCode, 410);
    assert.equal((await login('kim@acme.test')).statusCode, 200);
  });

  it('says a used confirmation link is gone, while its undo link stays good', async () => {
    await addPasswordUser('max@acme.test', 'Max');
    const max = (await tokenFor(t.app, 'max@acme.test')).accessToken;
    await post('/api/user/email', { newEmail: 'max.new@example.test', password: DEMO_PASSWORD }, max);
    const confirm = linkParts((await smtp.next('max.new@example.test', /Confirm/)).link);
    const undo = linkParts((await smtp.next('max@acme.test', /being changed/)).link);
    const body = { change: confirm.change, token: confirm.token };
    assert.equal((await post('/api/user/email/confirm', body)).statusCode, 200);
    assert.equal((await check({ ...body, action: 'confirm' })).statusCode, 410);
    assert.equal((await check({ change: undo.change, token: undo.undo, action: 'undo' })).statusCode, 204);
    assert.deepEqual((await get(max)).json(), { pending: null });
  });
});
