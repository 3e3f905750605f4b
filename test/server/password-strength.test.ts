import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { PasswordStrength } from '../../demo/server/lib/password-strength';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());
beforeEach(async () => {
  await t.db.kysely.deleteFrom('rate_limits').execute();
});

function estimate(body: unknown, language = 'en') {
  return t.app.inject({
    method: 'POST',
    url: '/api/password/strength',
    headers: { 'content-type': 'application/json', 'accept-language': language },
    payload: JSON.stringify(body),
  });
}

describe('POST /api/password/strength', () => {
  it('estimates for anyone, without a session or token, and names what makes it easy', async () => {
    const weak = await estimate({ password: 'password' });
    assert.equal(weak.statusCode, 200, weak.body);
    assert.deepEqual(weak.json(), { score: 0, warning: 'topTen' });
    const strong = await estimate({ password: 'violet tractor quietly hums 71 hymns' });
    assert.deepEqual(strong.json(), { score: 4, warning: null });
    const own = await estimate({ password: 'Ivy Invitee', userInputs: ['ivy@acme.test', 'Ivy Invitee'] });
    assert.deepEqual(own.json(), { score: 0, warning: 'userInputs' });
  });

  it('knows the words of the request’s language, and English in every language', async () => {
    const german = await estimate({ password: 'kartoffel' }, 'de');
    assert.equal(german.json().warning, 'wordByItself');
    const inEnglish = await estimate({ password: 'kartoffel' }, 'en');
    assert.notEqual(inEnglish.json().warning, 'wordByItself');
    assert.ok(inEnglish.json().score > german.json().score, `${inEnglish.body} vs ${german.body}`);
    const polish = await estimate({ password: 'ziemniaki' }, 'pl');
    assert.equal(polish.json().warning, 'wordByItself');
    const englishInDanish = await estimate({ password: 'yesterday' }, 'da');
    assert.equal(englishInDanish.json().warning, 'wordByItself');
  });

  it('refuses what no new-password field sends', async () => {
    assert.equal((await estimate({ password: '' })).statusCode, 400);
    assert.equal((await estimate({ password: 'x'.repeat(4097) })).statusCode, 400);
    assert.equal(
      (await estimate({ password: 'abc', userInputs: ['a', 'b', 'c', 'd', 'e', 'f'] })).statusCode,
      400,
    );
    assert.equal((await estimate({ password: 'abc', extra: 1 })).statusCode, 400);
  });

  it('looks at the first 32 characters of a long password, in bounded time', async () => {
    const started = performance.now();
    const long = await estimate({ password: 'Xk9#mPq2$vL7&nR4'.repeat(256) });
    assert.equal(long.statusCode, 200);
    assert.equal(long.json().score, 4);
    assert.ok(performance.now() - started < 3000, `${performance.now() - started} ms`);
  });

  it('limits how often one address asks (429), and keeps no password', async () => {
    for (let i = 0; i < 120; i++) assert.equal((await estimate({ password: `pw${i}` })).statusCode, 200);
    const refused = await estimate({ password: 'one more' });
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const rows = await t.db.kysely.selectFrom('rate_limits').select('bucket').execute();
    assert.deepEqual(
      rows.map((row) => row.bucket),
      ['strength:ip:127.0.0.1'],
    );
  });
});

describe('the strength worker', () => {
  it('answers null rather than queue behind too many, and goes on after', async () => {
    const strength = new PasswordStrength({ waiting: 2, timeoutMs: 10_000 });
    try {
      const answers = await Promise.all(
        ['a1', 'a2', 'a3'].map((password) => strength.estimate(password, [], 'en')),
      );
      assert.equal(answers.filter((answer) => answer === null).length, 1);
      assert.deepEqual(await strength.estimate('password', [], 'en'), { score: 0, warning: 'topTen' });
    } finally {
      await strength.close();
    }
  });

  it('replaces a worker that takes too long, and the next estimate is answered', async () => {
    const strength = new PasswordStrength({ waiting: 4, timeoutMs: 1 });
    try {
      // The first estimate starts the worker and ranks the dictionaries: far longer than 1 ms.
      assert.equal(await strength.estimate('password', [], 'en'), null);
    } finally {
      await strength.close();
    }
    const patient = new PasswordStrength({ waiting: 4, timeoutMs: 30_000 });
    try {
      assert.deepEqual(await patient.estimate('password', [], 'en'), { score: 0, warning: 'topTen' });
    } finally {
      await patient.close();
    }
  });
});
