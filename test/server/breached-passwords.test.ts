/**
 * New passwords checked against the Pwned Passwords range API (here its loopback stand-in): what leaves
 * the server (five hex characters, with padding asked for), a breached password refused on every path
 * that sets one, padding never taken for a breach, and the check failing open — with a log line and a
 * security-log entry — when the service is down, slow or answers badly.
 */
import { proofFor } from '../support/proof';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { loadConfig } from '../../demo/server/config';
import { checkNewPassword } from '../../demo/server/lib/password-policy';
import {
  breachCheck,
  rangeParts,
  suffixBreached,
  type BreachCheck,
} from '../../demo/server/lib/pwned-passwords';
import { serverText } from '../../demo/server/mail/texts';
import { LANGUAGES } from '../../src/contract/languages';
import {
  PADDED_ONLY_FIXTURE,
  startPwnedStandIn,
  type PwnedStandIn,
} from '../../demo/server/standin/pwned-passwords';
import { TestSmtp } from '../support/smtp';
import { addUser, api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, tokenFor, type TestApp } from '../support/test-server';

/** On the server's list of common passwords too: refused before any request leaves. */
const COMMON_AND_BREACHED = 'password1';
/** Breached, and passes every other rule: only the range API refuses it. */
const BREACHED = 'correct horse battery staple';
const CLEAN = 'a fine new passphrase';

let smtp: TestSmtp;
let t: TestApp;
let standIn: PwnedStandIn;
let who: Callers;
before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://portal.example.test' });
  standIn = t.pwnedStandIn!;
  who = await callers(t);
});
after(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  standIn.setMode('normal');
  standIn.received.length = 0;
  await t.db.kysely.deleteFrom('rate_limits').execute();
  await t.db.kysely.updateTable('teams').set({ seat_limit: 50, local_enabled: 1 }).execute();
});

let counter = 0;
const fresh = () => `pwned${++counter}@example.test`;

/** A new member with no password yet, and their token. */
async function member() {
  const email = fresh();
  const id = await addUser(t, { email, name: 'Pat Pwned', permissions: ['EDITOR'] });
  return { id, email, token: (await tokenFor(t.app, email)).accessToken };
}

const kinds = async (token: string) =>
  ((await api(t, 'GET', '/api/user/activity', token)).json().events as Array<{ kind: string }>).map(
    (event) => event.kind,
  );

const setPassword = (token: string, password: string, headers?: Record<string, string>) =>
  api(
    t,
    'PUT',
    '/api/user/password',
    token,
    { newPassword: password, confirmNewPassword: password },
    headers,
  );

describe('what leaves the server', () => {
  it('asks for the first five hex characters of the SHA-1 only, with Add-Padding: true', async () => {
    const { token } = await member();
    assert.equal((await setPassword(token, CLEAN)).statusCode, 200);
    const sha1 = createHash('sha1').update(CLEAN).digest('hex').toUpperCase();
    assert.equal(standIn.received.length, 1);
    const [asked] = standIn.received;
    assert.equal(asked!.path, `/range/${sha1.slice(0, 5)}`);
    assert.equal(asked!.headers['add-padding'], 'true');
    // Nothing of the rest of the hash, nor of the password, in the request line or a header.
    const sent = JSON.stringify(asked);
    assert.ok(!sent.includes(sha1.slice(5, 15)), sent);
    assert.ok(!sent.toLowerCase().includes(sha1.slice(5, 15).toLowerCase()), sent);
    assert.ok(!sent.includes(CLEAN), sent);
  });

  it('asks nothing for a password the rules refuse anyway', async () => {
    const { token } = await member();
    expectError(await setPassword(token, COMMON_AND_BREACHED), 400, 'common');
    expectError(await setPassword(token, 'short'), 400, 'tooShort');
    assert.deepEqual(standIn.received, []);
  });

  it('splits the hash as the service expects: 5 sent, 35 kept', () => {
    const { prefix, suffix } = rangeParts('Passw0rd!');
    assert.match(prefix, /^[0-9A-F]{5}$/);
    assert.match(suffix, /^[0-9A-F]{35}$/);
  });
});

describe('a breached password', () => {
  it('is refused when set, with the reason in the caller’s language', async () => {
    const { token, id } = await member();
    const refused = await setPassword(token, BREACHED, { 'accept-language': 'de' });
    expectError(refused, 400, 'breached');
    assert.equal(refused.json().message, serverText('de', 'policy.breached'));
    const row = await t.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.password_hash, null);
  });

  it('is refused when changed', async () => {
    const { token } = await member();
    assert.equal((await setPassword(token, CLEAN)).statusCode, 200);
    const changed = await api(t, 'POST', '/api/user/password', token, {
      oldPassword: CLEAN,
      newPassword: BREACHED,
      confirmNewPassword: BREACHED,
    });
    expectError(changed, 400, 'breached');
  });

  it('is refused when reset from the mailed link', async () => {
    const { email, token } = await member();
    assert.equal((await setPassword(token, CLEAN)).statusCode, 200);
    assert.equal(
      (
        await api(t, 'POST', '/api/user/password/request', undefined, {
          teamName: 'acme',
          userName: email,
          proof: await proofFor(t.app),
        })
      ).statusCode,
      200,
    );
    const link = new URL((await smtp.next(email, /reset/i)).link!);
    const body = {
      teamName: 'acme',
      userId: link.searchParams.get('id')!,
      token: link.searchParams.get('token')!,
    };
    expectError(
      await api(t, 'POST', '/api/user/password/reset', undefined, { ...body, newPassword: BREACHED }),
      400,
      'breached',
    );
    // The link still works for a password that is not breached.
    const reset = await api(t, 'POST', '/api/user/password/reset', undefined, {
      ...body,
      newPassword: 'another fine passphrase',
    });
    assert.equal(reset.statusCode, 200, reset.body);
  });

  it('is refused when an invitation is accepted, on the password field', async () => {
    const email = fresh();
    assert.equal(
      (await api(t, 'POST', '/api/team/invitations', who.owner, { email, permissions: ['EDITOR'] }))
        .statusCode,
      201,
    );
    const url = new URL((await smtp.next(email, /invit/i)).link!);
    const accept = (password: string) =>
      api(t, 'POST', '/api/invitations/accept', undefined, {
        teamName: 'acme',
        invitationId: url.searchParams.get('id')!,
        token: url.searchParams.get('token')!,
        name: 'Nora New',
        password,
        confirmPassword: password,
      });
    expectError(await accept(BREACHED), 400, 'breached', 'password');
    assert.equal((await accept(CLEAN)).statusCode, 200);
  });

  it('is not one the service lists only as padding (count 0)', async () => {
    const { token } = await member();
    const padded = rangeParts(PADDED_ONLY_FIXTURE);
    const answer = await fetch(`${standIn.url}${padded.prefix}`, { headers: { 'add-padding': 'true' } });
    assert.ok((await answer.text()).includes(`${padded.suffix}:0`), 'the stand-in lists it as padding');
    assert.equal((await setPassword(token, PADDED_ONLY_FIXTURE)).statusCode, 200);
  });

  it('has its refusal written in every language', () => {
    const texts = new Set(LANGUAGES.map((language) => serverText(language, 'policy.breached')));
    assert.equal(texts.size, LANGUAGES.length);
  });
});

describe('when the service cannot answer', () => {
  for (const mode of ['error', 'garbage', 'redirect', 'silent'] as const) {
    it(`accepts the password (fails open) and logs it for the user: ${mode}`, async () => {
      standIn.setMode(mode);
      const { token } = await member();
      const started = Date.now();
      // Breached, but the service does not say so: accepted.
      assert.equal((await setPassword(token, BREACHED)).statusCode, 200);
      assert.ok(Date.now() - started < 4_000, 'the check gives up after about two seconds');
      const log = await kinds(token);
      assert.ok(log.includes('breachCheckSkipped'), log.join());
      assert.ok(log.includes('passwordSet'), log.join());
    });
  }

  it('fails open when the stand-in is down, and no entry is written when it answered', async () => {
    const { token } = await member();
    assert.equal((await setPassword(token, CLEAN)).statusCode, 200);
    assert.ok(!(await kinds(token)).includes('breachCheckSkipped'));

    const down = await startPwnedStandIn();
    const url = down.url;
    await down.close();
    const check = breachCheck(url, 500);
    const answer = await check(BREACHED);
    assert.ok('unavailable' in answer && /unreachable/.test(answer.unavailable), JSON.stringify(answer));
  });

  it('writes a server log line naming why', async () => {
    const lines: unknown[][] = [];
    const down: BreachCheck = async () => ({ unavailable: 'unreachable: 127.0.0.1 did not answer' });
    const request = {
      server: { services: { breachCheck: down } },
      log: { warn: (...args: unknown[]) => lines.push(args) },
    } as unknown as FastifyRequest;
    assert.deepEqual(await checkNewPassword(request, BREACHED, 'pat@example.test'), {
      problem: null,
      unchecked: true,
    });
    assert.equal(lines.length, 1);
    assert.deepEqual(lines[0]![0], { reason: 'unreachable: 127.0.0.1 did not answer' });
    assert.match(String(lines[0]![1]), /breached-password check unavailable/);
  });
});

describe('reading an answer', () => {
  const suffix = rangeParts(BREACHED).suffix;
  it('finds a listed suffix with a count, in either case, with CRLF line ends', () => {
    assert.equal(suffixBreached(`${'0'.repeat(35)}:3\r\n${suffix.toLowerCase()}:12\r\n`, suffix), true);
  });
  it('takes a count of 0 (padding) as not breached', () => {
    assert.equal(suffixBreached(`${suffix}:0\r\n`, suffix), false);
  });
  it('refuses to read anything else as an answer', () => {
    assert.equal(suffixBreached('<html>maintenance</html>', suffix), null);
    assert.equal(suffixBreached(`${suffix}:many`, suffix), null);
  });
});

describe('PWNED_PASSWORDS_URL', () => {
  const env = (url?: string) => ({ DATA_DIR: '/tmp/unused', ...(url ? { PWNED_PASSWORDS_URL: url } : {}) });
  it('is unset by default (the public service, or the stand-in in demo mode)', () => {
    assert.equal(loadConfig(env()).pwnedPasswordsUrl, null);
  });
  it('takes https, or plain http to a loopback address, and ends it in /', () => {
    assert.equal(
      loadConfig(env('https://mirror.example.com/range')).pwnedPasswordsUrl,
      'https://mirror.example.com/range/',
    );
    assert.equal(
      loadConfig(env('http://127.0.0.1:9000/range/')).pwnedPasswordsUrl,
      'http://127.0.0.1:9000/range/',
    );
  });
  it('refuses plain http elsewhere, credentials, a query', () => {
    for (const url of [
      'http://mirror.example.com/range/',
      'https://u:p@mirror.example.com/',
      'https://m.example.com/?x=1',
      'ftp://m.example.com/',
    ])
      assert.throws(() => loadConfig(env(url)), /PWNED_PASSWORDS_URL/, url);
  });
});
