import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { CHALLENGE_MS, COST } from '../../demo/server/lib/proof-of-work';
import type { Proof } from '../../src/contract/schemas/challenge';
import { challengeOf, proofFor, solve } from '../support/proof';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
before(async () => {
  t = await createTestApp({ LOGIN_ADDRESS_LIMIT: '1000', CHALLENGE_ADDRESS_FAILURES: '4' });
});
after(() => t.close());
beforeEach(async () => {
  await t.db.kysely.deleteFrom('login_failures').execute();
  await t.db.kysely.deleteFrom('rate_limits').execute();
  await t.db.kysely.deleteFrom('used_challenges').execute();
  t.clock.offset = 0;
});

function post(url: string, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}
const forgot = (proof?: Proof, userName = 'ada@acme.test') =>
  post('/api/user/password/request', { teamName: 'acme', userName, proof });
const login = (email: string, password: string, proof?: Proof) =>
  post('/account/login', { teamName: 'acme', email, password, proof });

function refusal(response: { statusCode: number; json(): { code?: string } }) {
  return `${response.statusCode} ${response.json().code ?? ''}`;
}

describe('GET /account/challenge', () => {
  it('issues a signed PBKDF2 challenge to anyone, expiring in five minutes; nothing stored', async () => {
    const challenge = await challengeOf(t.app);
    assert.equal(challenge.parameters.algorithm, 'PBKDF2/SHA-256');
    assert.equal(challenge.parameters.cost, COST);
    assert.match(challenge.signature, /^[0-9a-f]{64}$/);
    assert.ok(challenge.parameters.keySignature);
    const left = challenge.parameters.expiresAt * 1000 - t.clock.now();
    assert.ok(left > CHALLENGE_MS - 5000 && left <= CHALLENGE_MS, `${left} ms left`);
    const stored = await t.db.kysely.selectFrom('used_challenges').selectAll().execute();
    assert.equal(stored.length, 0);
  });

  it('limits how often one address asks (429)', async () => {
    for (let i = 0; i < 60; i++) await t.app.inject({ method: 'GET', url: '/account/challenge' });
    const refused = await t.app.inject({ method: 'GET', url: '/account/challenge' });
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
  });
});

describe('a proof-of-work solution', () => {
  it('is accepted once: the same solution again is refused as used', async () => {
    const proof = await proofFor(t.app);
    assert.equal((await forgot(proof)).statusCode, 200);
    assert.equal(refusal(await forgot(proof)), '403 challengeUsed');
  });

  it('is accepted once when sent twice at the same moment', async () => {
    const proof = await proofFor(t.app);
    const answers = await Promise.all([forgot(proof), forgot(proof), forgot(proof)]);
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 403, 403]);
  });

  it('is refused when missing', async () => {
    const response = await forgot();
    assert.equal(refusal(response), '403 challengeRequired');
    assert.match(response.json().message, /proof-of-work/);
  });

  it('is refused once the challenge has expired, and the row of a spent one is swept then', async () => {
    const spent = await proofFor(t.app);
    assert.equal((await forgot(spent)).statusCode, 200);
    const late = await proofFor(t.app);
    t.clock.advance(CHALLENGE_MS + 1000);
    assert.equal(refusal(await forgot(late)), '403 challengeExpired');
    // The next spend drops what has expired: the first proof's row goes, the new one's stays.
    assert.equal((await t.db.kysely.selectFrom('used_challenges').selectAll().execute()).length, 1);
    t.clock.advance(CHALLENGE_MS);
    const next = await proofFor(t.app);
    assert.equal((await forgot(next)).statusCode, 200);
    const left = await t.db.kysely.selectFrom('used_challenges').selectAll().execute();
    assert.equal(left.length, 1, 'only the newest spent challenge is kept');
  });

  it('is refused when wrong: another key, tampered parameters, a foreign key', async () => {
    const proof = await proofFor(t.app);
    const { counter, derivedKey } = proof.solution;
    const wrongKey = `${derivedKey[0] === '0' ? '1' : '0'}${derivedKey.slice(1)}`;
    const cases: Array<[string, Proof]> = [
      ['another key', { ...proof, solution: { counter, derivedKey: wrongKey } }],
      [
        'a later expiry',
        {
          ...proof,
          challenge: {
            ...proof.challenge,
            parameters: {
              ...proof.challenge.parameters,
              expiresAt: proof.challenge.parameters.expiresAt + 3600,
            },
          },
        },
      ],
      [
        'a cheaper cost',
        {
          ...proof,
          challenge: { ...proof.challenge, parameters: { ...proof.challenge.parameters, cost: 1 } },
        },
      ],
    ];
    for (const [name, wrong] of cases)
      assert.equal(refusal(await forgot(wrong)), '403 challengeInvalid', name);
    // A challenge signed by another server's key.
    const other = await createTestApp();
    try {
      assert.equal(refusal(await forgot(await proofFor(other.app))), '403 challengeInvalid', 'foreign key');
    } finally {
      await other.close();
    }
    // None of the refusals spent it.
    assert.equal((await forgot(proof)).statusCode, 200);
  });

  it('is refused when malformed, by the schema (400)', async () => {
    const proof = await proofFor(t.app);
    const bad = { ...proof, solution: { ...proof.solution, derivedKey: 'XYZ' } };
    assert.equal((await forgot(bad)).statusCode, 400);
    assert.equal((await forgot({ ...proof, extra: 1 } as unknown as Proof)).statusCode, 400);
  });
});

describe('forgot password', () => {
  it('requires a solution: no mail is even considered without one', async () => {
    assert.equal(refusal(await forgot(undefined, 'nobody@acme.test')), '403 challengeRequired');
    assert.equal((await forgot(await proofFor(t.app), 'nobody@acme.test')).statusCode, 200);
  });
});

describe('sign-in', () => {
  it('asks nothing of a first or second failure, then a solution for each try of that account', async () => {
    assert.equal((await login('ada@acme.test', 'wrong')).statusCode, 401);
    assert.equal((await login('ada@acme.test', 'wrong')).statusCode, 401);
    assert.equal(refusal(await login('ada@acme.test', 'wrong')), '403 challengeRequired');
    // Even the right password: the challenge comes before the password is looked at.
    assert.equal(refusal(await login('ada@acme.test', DEMO_PASSWORD)), '403 challengeRequired');
    // Another account from the same address is not asked yet (2 of the address's 4).
    assert.equal((await login('carol@acme.test', 'wrong')).statusCode, 401);
    const proof = await proofFor(t.app);
    assert.equal((await login('ada@acme.test', DEMO_PASSWORD, proof)).statusCode, 200);
    // The success cleared the count: no challenge now; and the solution was spent.
    assert.equal((await login('ada@acme.test', DEMO_PASSWORD)).statusCode, 200);
  });

  it('asks every account for a solution once the address shows failures (CHALLENGE_ADDRESS_FAILURES)', async () => {
    for (let i = 0; i < 4; i++) assert.equal((await login(`guess${i}@acme.test`, 'wrong')).statusCode, 401);
    assert.equal(refusal(await login('ada@acme.test', DEMO_PASSWORD)), '403 challengeRequired');
    const proof = await proofFor(t.app);
    assert.equal((await login('ada@acme.test', DEMO_PASSWORD, proof)).statusCode, 200);
    assert.equal(refusal(await login('ada@acme.test', DEMO_PASSWORD, proof)), '403 challengeUsed');
    // A quarter of an hour later the address's count has gone.
    t.clock.advance(15 * 60_000 + 1000);
    assert.equal((await login('ada@acme.test', DEMO_PASSWORD)).statusCode, 200);
  });

  it('refuses an expired or wrong solution like a missing one', async () => {
    await login('ada@acme.test', 'wrong');
    await login('ada@acme.test', 'wrong');
    const proof = await proofFor(t.app);
    const key = proof.solution.derivedKey;
    const wrong = {
      ...proof,
      solution: { ...proof.solution, derivedKey: `${key[0] === 'a' ? 'b' : 'a'}${key.slice(1)}` },
    };
    assert.equal(refusal(await login('ada@acme.test', DEMO_PASSWORD, wrong)), '403 challengeInvalid');
    t.clock.advance(CHALLENGE_MS + 1000);
    assert.equal(refusal(await login('ada@acme.test', DEMO_PASSWORD, proof)), '403 challengeExpired');
  });

  it('a solution serves one route once: spent on sign-in, refused on forgot password', async () => {
    const proof = await solve(await challengeOf(t.app));
    await login('ada@acme.test', 'wrong');
    await login('ada@acme.test', 'wrong');
    assert.equal((await login('ada@acme.test', DEMO_PASSWORD, proof)).statusCode, 200);
    assert.equal(refusal(await forgot(proof)), '403 challengeUsed');
  });
});
