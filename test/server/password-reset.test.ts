import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { watch } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { RESET_TOKEN_MS } from '../../demo/server/routes/password-reset';
import { TestSmtp } from '../support/smtp';
import { createTestApp, sessionFor, type TestApp } from '../support/test-server';
import { proofFor } from '../support/proof';

let smtp: TestSmtp;
let t: TestApp;
before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://portal.example.test' });
});
after(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.db.kysely.deleteFrom('rate_limits').execute();
  t.clock.offset = 0;
});

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
}

const request = async (teamName: string, userName: string, headers?: Record<string, string>) =>
  post('/api/user/password/request', { teamName, userName, proof: await proofFor(t.app) }, headers);

async function linkFor(email: string, team = 'acme') {
  const response = await request(team, email);
  assert.equal(response.statusCode, 200);
  const mail = await smtp.next(email, /password/i);
  const link = new URL(mail.link!);
  return { mail, link, id: link.searchParams.get('id')!, token: link.searchParams.get('token')! };
}

const reset = (
  body: { teamName?: string; userId: string; token: string; newPassword: string },
  headers?: Record<string, string>,
) => post('/api/user/password/reset', { teamName: 'acme', ...body }, headers);

/**
 * Ask for one more reset link, for a real account, and wait for its mail. Mail goes out in the
 * background, started as each request is answered: once the mail of this later request is in, one
 * started for a request before it would be in too. A test proves that a request sent none by looking
 * after this.
 */
async function laterMailIn() {
  assert.equal((await request('acme', 'bob@acme.test')).statusCode, 200);
  await smtp.next('bob@acme.test', /password/i);
}

async function login(email: string, password: string, team = 'acme') {
  return (await post('/account/login', { teamName: team, email, password })).statusCode;
}

describe('POST /api/user/password/request', () => {
  it('answers the same whether or not the account exists, and mails only real accounts', async () => {
    const real = await request('acme', 'ada@acme.test');
    const ghost = await request('acme', 'ghost@acme.test');
    const noTeam = await request('nowhere', 'ada@acme.test');
    assert.equal(real.statusCode, 200);
    assert.equal(real.body, ghost.body);
    assert.equal(real.body, noTeam.body);
    assert.equal(ghost.statusCode, 200);
    const mail = await smtp.next('ada@acme.test', /password/i);
    await laterMailIn();
    assert.deepEqual(
      smtp.received.map((m) => m.to),
      [],
      'no mail for the unknown account nor the unknown team',
    );
    assert.ok(
      mail.link?.startsWith('https://portal.example.test/login/acme/resetPassword?id='),
      mail.link ?? '',
    );
    assert.match(mail.html, /<a href="https:\/\/portal\.example\.test\/login\/acme\/resetPassword/);
    assert.match(mail.subject, /Intoware/);
  });

  it('mails no link, with the same answer, for a team without password sign-in', async () => {
    const dan = await request('umbrella', 'dan@umbrella.test');
    const ghost = await request('acme', 'ghost@acme.test');
    assert.equal(dan.statusCode, 200);
    assert.equal(dan.body, ghost.body);
    await laterMailIn();
    assert.deepEqual(
      smtp.received.map((m) => m.to),
      [],
      'no mail for the team without password sign-in',
    );
    // A link from before the team turned password sign-in off no longer sets one.
    const danRow = await t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'dan@umbrella.test')
      .executeTakeFirstOrThrow();
    const late = await reset({
      teamName: 'umbrella',
      userId: danRow.id,
      token: 'x'.repeat(43),
      newPassword: 'a-new-pass-phrase',
    });
    assert.equal(late.statusCode, 401);
  });

  it('builds the link from PUBLIC_URL, never from the Host header', async () => {
    await request('acme', 'ada@acme.test', { host: 'evil.test', 'x-forwarded-host': 'evil.test' });
    const mail = await smtp.next('ada@acme.test', /password/i);
    assert.ok(mail.link!.startsWith('https://portal.example.test/'), mail.link!);
  });

  it('carries a valid ReturnUrl into the link, and never another', async () => {
    const cases: Array<[string, string | null]> = [
      ['/manage/qr', '/manage/qr'],
      ['//evil.test/x', null],
      ['https://evil.test/x', null],
    ];
    for (const [returnUrl, kept] of cases) {
      await t.db.kysely.deleteFrom('rate_limits').execute();
      const answer = await post('/api/user/password/request', {
        teamName: 'acme',
        userName: 'ada@acme.test',
        returnUrl,
        proof: await proofFor(t.app),
      });
      assert.equal(answer.statusCode, 200);
      const mail = await smtp.next('ada@acme.test', /password/i);
      assert.equal(new URL(mail.link!).searchParams.get('ReturnUrl'), kept, returnUrl);
    }
  });

  it('writes in the language the request asks for', async () => {
    await request('acme', 'ada@acme.test', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    const mail = await smtp.next('ada@acme.test', /Passwort/);
    assert.match(mail.text, /Neues Passwort festlegen/);
  });

  it('stores only a hash of a 256-bit token, valid for an hour', async () => {
    const { id, token } = await linkFor('carol@globex.test', 'globex');
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    const rows = await t.db.kysely
      .selectFrom('password_resets')
      .selectAll()
      .where('user_id', '=', id)
      .execute();
    const live = rows.filter((r) => r.used_at === null && r.superseded_at === null);
    assert.equal(live.length, 1);
    assert.notEqual(live[0]!.token_hash, token);
    assert.equal(live[0]!.expires_at - live[0]!.created_at, RESET_TOKEN_MS);
  });

  it('limits requests per account (429), counting unknown accounts too', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await request('acme', 'nobody-here@acme.test')).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });

  it('limits requests per client address (429 with Retry-After), whatever the account', async () => {
    const from = async (address: string, i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/password/request',
        remoteAddress: address,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          teamName: 'acme',
          userName: `someone-${i}@acme.test`,
          proof: await proofFor(t.app),
        }),
      });
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push((await from('198.51.100.7', i)).statusCode);
    assert.deepEqual(statuses, Array(20).fill(200));
    const refused = await from('198.51.100.7', 20);
    assert.equal(refused.statusCode, 429);
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 15 * 60, `${retryAfter}`);
    assert.deepEqual(refused.json(), { message: 'too many requests, try again later' });
    // Another address is counted on its own; the window ends after 15 minutes.
    assert.equal((await from('198.51.100.8', 21)).statusCode, 200);
    t.clock.advance(15 * 60_000 + 1);
    assert.equal((await from('198.51.100.7', 22)).statusCode, 200);
  });

  it('refuses bad bodies', async () => {
    assert.equal((await request('', 'x')).statusCode, 400);
    assert.equal((await post('/api/user/password/request', { teamName: 'acme' })).statusCode, 400);
    assert.equal(
      (await post('/api/user/password/request', { teamName: 'acme', userName: 'a', extra: true })).statusCode,
      400,
    );
  });
});

describe('POST /api/user/password/reset', () => {
  it('resets: the new password works, the old fails, sessions end, a notice is mailed', async () => {
    const before = await sessionFor(t.app, 'ada@acme.test');
    const { id, token } = await linkFor('ada@acme.test');
    const response = await reset({ userId: id, token, newPassword: 'a new and long passphrase' });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(await login('ada@acme.test', 'a new and long passphrase'), 200);
    assert.equal(await login('ada@acme.test', DEMO_PASSWORD), 401);
    const session = await t.db.kysely
      .selectFrom('sessions')
      .select('revoked_at')
      .where('public_id', '=', before.publicId)
      .executeTakeFirstOrThrow();
    assert.notEqual(session.revoked_at, null);
    const notice = await smtp.next('ada@acme.test', /changed/i);
    assert.match(notice.text, /was changed/);
    // Put the demo password back for the other tests.
    const again = await linkFor('ada@acme.test');
    assert.equal(
      (await reset({ userId: again.id, token: again.token, newPassword: 'portal-demo-pass' })).statusCode,
      200,
    );
    await smtp.next('ada@acme.test', /changed/i);
  });

  it('uses a token once: 20 parallel resets, exactly one 200', async () => {
    const { id, token } = await linkFor('carol@globex.test', 'globex');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        reset({ teamName: 'globex', userId: id, token, newPassword: `parallel winner ${i} long` }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    assert.deepEqual(codes, [200, ...Array(19).fill(410)]);
    const winner = answers.findIndex((a) => a.statusCode === 200);
    assert.equal(await login('carol@globex.test', `parallel winner ${winner} long`, 'globex'), 200);
    await smtp.next('carol@globex.test', /changed/i);
  });

  it('refuses a superseded token with 410', async () => {
    const first = await linkFor('bob@acme.test');
    const second = await linkFor('bob@acme.test');
    assert.equal(
      (await reset({ userId: first.id, token: first.token, newPassword: 'bob has a passphrase now' }))
        .statusCode,
      410,
    );
    assert.equal(
      (await reset({ userId: second.id, token: second.token, newPassword: 'bob has a passphrase now' }))
        .statusCode,
      200,
    );
    await smtp.next('bob@acme.test', /changed/i);
  });

  it('refuses an expired token with 410', async () => {
    const { id, token } = await linkFor('locked@acme.test');
    t.clock.advance(RESET_TOKEN_MS + 1000);
    const response = await reset({ userId: id, token, newPassword: 'late but long enough' });
    assert.equal(response.statusCode, 410);
    assert.equal(response.json().message, 'This reset link is no longer valid.');
  });

  it('answers 401 when the team and the user do not match', async () => {
    const { id, token } = await linkFor('locked@acme.test');
    assert.equal(
      (await reset({ teamName: 'globex', userId: id, token, newPassword: 'x long enough pw' })).statusCode,
      401,
    );
    assert.equal(
      (await reset({ userId: 'no-such-user', token, newPassword: 'x long enough pw' })).statusCode,
      401,
    );
  });

  it("applies the password policy with a message in the caller's language, without using the token", async () => {
    const { id, token } = await linkFor('locked@acme.test');
    const cases: Array<[string, RegExp]> = [
      ['short', /at least 8 characters/],
      ['x'.repeat(129), /at most 128 characters/],
      ['locked@acme.test', /must not be your email address/],
      ['Password123', /too common/],
    ];
    for (const [newPassword, message] of cases) {
      const response = await reset({ userId: id, token, newPassword });
      assert.equal(response.statusCode, 400, newPassword);
      assert.match(response.json().message, message);
    }
    const french = await reset({ userId: id, token, newPassword: 'court' }, { 'accept-language': 'fr' });
    assert.equal(french.json().message, 'Le mot de passe doit contenir au moins 8 caractères.');
    // 128 characters, no truncation: the whole value is the password.
    const long = `${'a'.repeat(127)}b`;
    assert.equal((await reset({ userId: id, token, newPassword: long })).statusCode, 200);
    assert.equal(await login('locked@acme.test', `${'a'.repeat(127)}c`), 401);
    await smtp.next('locked@acme.test', /changed/i);
  });

  it('lifts a sign-in lockout', async () => {
    for (let i = 0; i < 5; i++) await login('carol@globex.test', 'wrong', 'globex');
    assert.equal(await login('carol@globex.test', 'wrong', 'globex'), 403);
    const { id, token } = await linkFor('carol@globex.test', 'globex');
    assert.equal(
      (await reset({ teamName: 'globex', userId: id, token, newPassword: 'carol is back in' })).statusCode,
      200,
    );
    assert.equal(await login('carol@globex.test', 'carol is back in', 'globex'), 200);
    await smtp.next('carol@globex.test', /changed/i);
  });
});

describe('the outbox (no SMTP)', () => {
  it('writes .eml files and lists them on /demo/outbox', async () => {
    const local = await createTestApp();
    try {
      // The mail is written in the background, its note for the outbox page last: watch for the note.
      const outbox = join(local.dir, 'outbox');
      mkdirSync(outbox, { recursive: true });
      const proof = await proofFor(local.app);
      const noted = (async () => {
        try {
          for await (const { filename } of watch(outbox, { signal: AbortSignal.timeout(10_000) })) {
            if (filename?.endsWith('.json') && existsSync(join(outbox, filename))) return;
          }
        } catch (error) {
          throw new Error('no note in the outbox within 10 s', { cause: error });
        }
      })();
      await local.app.inject({
        method: 'POST',
        url: '/api/user/password/request',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ teamName: 'acme', userName: 'ada@acme.test', proof }),
      });
      await noted;
      const page = (await local.app.inject({ method: 'GET', url: '/demo/outbox' })).body;
      assert.match(
        page,
        /<a href="http:\/\/localhost:8080\/login\/acme\/resetPassword\?id=[^"]+&amp;token=[^"]+">/,
      );
      const files = readdirSync(outbox);
      assert.ok(files.some((f) => f.endsWith('.eml')));
    } finally {
      await local.close();
    }
  });
});
