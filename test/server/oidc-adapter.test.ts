/**
 * The OpenID Provider's storage (lib/oidc-adapter.ts on db/oidc-models.ts), on the test database —
 * SQLite, or PostgreSQL under `npm run test:postgres`: what it saves comes back, expiry is honoured,
 * a code is consumed once even when two requests race for it, and a grant's revocation takes every
 * object issued under it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errors } from 'oidc-provider';
import { oidcAdapter } from '../../demo/server/lib/oidc-adapter';
import { createTestApp, type TestApp } from '../support/test-server';

describe('the OpenID Provider adapter', () => {
  let t: TestApp;
  let Adapter: ReturnType<typeof oidcAdapter>;
  before(async () => {
    t = await createTestApp();
    Adapter = oidcAdapter(t.app.services.repos.oidcModels, t.clock, {
      find: async () => undefined,
      used: async () => undefined,
    });
  });
  after(() => t.close());

  it('saves, finds, replaces and destroys an object, by id, uid and user code', async () => {
    const sessions = new Adapter('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a' }, 60);
    assert.deepEqual(await sessions.find('s1'), { uid: 'u1', accountId: 'a' });
    assert.deepEqual(await sessions.findByUid('u1'), { uid: 'u1', accountId: 'a' });
    // Another model's object of the same id is another object.
    assert.equal(await new Adapter('Interaction').find('s1'), undefined);
    await sessions.upsert('s1', { uid: 'u1', accountId: 'b' }, 60);
    assert.equal((await sessions.find('s1'))?.accountId, 'b');
    await sessions.destroy('s1');
    assert.equal(await sessions.find('s1'), undefined);

    const devices = new Adapter('DeviceCode');
    await devices.upsert('d1', { userCode: 'BCDF-GHJK', grantId: 'g0' }, 60);
    assert.equal((await devices.findByUserCode('BCDF-GHJK'))?.grantId, 'g0');
  });

  it('returns nothing past the expiry, by any lookup', async () => {
    const codes = new Adapter('AuthorizationCode');
    await codes.upsert('c-ttl', { uid: 'u-ttl', userCode: 'U-TTL' }, 60);
    t.clock.advance(59_000);
    assert.ok(await codes.find('c-ttl'));
    t.clock.advance(1_000);
    assert.equal(await codes.find('c-ttl'), undefined);
    assert.equal(await codes.findByUid('u-ttl'), undefined);
    assert.equal(await codes.findByUserCode('U-TTL'), undefined);
    await assert.rejects(codes.consume('c-ttl'), errors.InvalidGrant);
    assert.ok((await t.app.services.repos.oidcModels.purge(t.clock.now())) >= 1);
  });

  it('consumes a code once: of two racing uses exactly one wins, and the code then says so', async () => {
    const codes = new Adapter('AuthorizationCode');
    for (let round = 0; round < 5; round++) {
      const id = `race-${round}`;
      await codes.upsert(id, { grantId: 'g-race' }, 60);
      const results = await Promise.allSettled([codes.consume(id), codes.consume(id)]);
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(results));
      const lost = results.find((r) => r.status === 'rejected');
      assert.ok(lost && lost.reason instanceof errors.InvalidGrant);
      const consumed = (await codes.find(id))?.consumed;
      assert.equal(typeof consumed, 'number');
    }
  });

  it('revokes by grant every object of the model issued under it, and nothing else', async () => {
    const tokens = new Adapter('RefreshToken');
    await tokens.upsert('r1', { grantId: 'g1' }, 60);
    await tokens.upsert('r2', { grantId: 'g1' }, 60);
    await tokens.upsert('r3', { grantId: 'g2' }, 60);
    await tokens.revokeByGrantId('g1');
    assert.equal(await tokens.find('r1'), undefined);
    assert.equal(await tokens.find('r2'), undefined);
    assert.ok(await tokens.find('r3'));
  });
});
