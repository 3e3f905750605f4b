import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { LOCKOUT_THRESHOLD } from '../../demo/server/lib/lockout';
import { createTestApp, PRODUCTION_HASH_COST, type TestApp } from '../support/test-server';

/**
 * Races on shared state. The other two live with their features and run in `npm test`:
 * - 20 parallel uses of one reset token → exactly one 200: test/server/password-reset.test.ts
 *   ("uses a token once: 20 parallel resets, exactly one 200");
 * - parallel unlinks keep a sign-in method: test/server/external.test.ts
 *   ("leaves at least one sign-in method when two unlinks race").
 */
let t: TestApp;
before(async () => {
  // Production hashing: every attempt must pass the lock check before the first hash finishes.
  t = await createTestApp({ LOGIN_ADDRESS_LIMIT: '1000', HASH_COST: PRODUCTION_HASH_COST });
});
after(() => t.close());

it('counts 20 parallel wrong passwords for one account exactly: +20', async () => {
  const count = 20;
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      t.app.inject({
        method: 'POST',
        url: '/account/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ teamName: 'acme', email: 'ada@acme.test', password: `wrong guess ${i}` }),
      }),
    ),
  );
  const row = await t.db.kysely
    .selectFrom('login_failures')
    .selectAll()
    .where('team_name', '=', 'acme')
    .where('email', '=', 'ada@acme.test')
    .executeTakeFirstOrThrow();
  // No lost update: every failure was counted, though the lock came at the fifth.
  assert.equal(row.failures, count);
  assert.ok(row.locked_until && row.locked_until > Date.now());
  // All 20 passed the lock check before any hash finished; the counter decides the answer: the first
  // four failures are 401, the fifth and later 403 (locked).
  const statuses = answers.map((a) => a.statusCode).sort();
  assert.deepEqual(statuses, [
    ...Array<number>(LOCKOUT_THRESHOLD - 1).fill(401),
    ...Array<number>(count - LOCKOUT_THRESHOLD + 1).fill(403),
  ]);
});
