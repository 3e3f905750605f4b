import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { PUBLISH_AHEAD_MS, RETIRED_KEPT_MS } from '../../demo/server/lib/keys';
import { Sealer } from '../../demo/server/lib/sealing';
import { createTestApp, tokenFor, type TestApp } from '../support/test-server';

describe('sealing the secrets stored in the database', () => {
  const sealer = new Sealer(Buffer.alloc(32, 3));

  it('opens what it sealed, for the same row only, and refuses a changed byte or another key', () => {
    const sealed = sealer.seal('{"d":"private"}', 'signing_keys:a');
    assert.match(sealed, /^aes256gcm\./);
    assert.ok(!sealed.includes('private'));
    assert.notEqual(sealer.seal('{"d":"private"}', 'signing_keys:a'), sealed, 'a fresh IV each time');
    assert.equal(sealer.open(sealed, 'signing_keys:a'), '{"d":"private"}');
    assert.throws(() => sealer.open(sealed, 'signing_keys:b'), /does not open/);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[2]!, 'base64url');
    body[0]! ^= 1;
    parts[2] = body.toString('base64url');
    assert.throws(() => sealer.open(parts.join('.'), 'signing_keys:a'), /does not open/);
    assert.throws(() => new Sealer(Buffer.alloc(32, 4)).open(sealed, 'signing_keys:a'), /does not open/);
    assert.throws(() => new Sealer(null).open(sealed, 'signing_keys:a'), /set KEY_ENCRYPTION_KEY/);
  });

  it('stores values as they are without a key (SQLite), and still opens them once a key is set', () => {
    const plain = new Sealer(null).seal('secret', 'server_secrets:x');
    assert.match(plain, /^plain\./);
    assert.equal(sealer.open(plain, 'server_secrets:x'), 'secret');
  });
});

describe('key rotation', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const jwksKids = async () =>
    (
      (await t.app.inject({ method: 'GET', url: '/.well-known/jwks' })).json() as {
        keys: Array<{ kid: string }>;
      }
    ).keys.map((key) => key.kid);
  const userinfo = async (token: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/connect/userinfo',
        headers: { authorization: `Bearer ${token}` },
      })
    ).statusCode;

  it('publishes a new key ahead, signs with it from its time, keeps the old one for its tokens, then drops it', async () => {
    const { keys } = t.app.services;
    const first = keys.signingKey().kid;
    const old = await tokenFor(t.app, 'ada@acme.test', 'acme');
    const next = await keys.rotate();
    // Published at once, not signing yet.
    assert.deepEqual(await jwksKids(), [first, next]);
    assert.equal(keys.signingKey().kid, first);
    t.clock.advance(PUBLISH_AHEAD_MS);
    assert.equal(keys.signingKey().kid, next);
    const fresh = await tokenFor(t.app, 'ada@acme.test', 'acme');
    assert.equal(decodeProtectedHeader(fresh.accessToken).kid, next);
    assert.deepEqual(await jwksKids(), [next, first]);
    // The old key's token works until it expires (an hour), well within the old key's retirement.
    assert.equal(await userinfo(old.accessToken), 200);
    t.clock.advance(RETIRED_KEPT_MS);
    assert.deepEqual(await jwksKids(), [next], 'retired long enough ago: no longer published');
    assert.equal(await keys.verificationKey(first), undefined, 'nor accepted');
  });

  it('rotates by itself when the signing key is KEY_ROTATION_DAYS old', async () => {
    const { keys, config } = t.app.services;
    const before = keys.signingKey().kid;
    t.clock.advance(config.keyRotationDays * 24 * 60 * 60 * 1000);
    await keys.reload();
    const kids = await jwksKids();
    assert.equal(kids[0], before, 'the current key signs on until the new one is due');
    assert.equal(kids.length, 2);
    t.clock.advance(PUBLISH_AHEAD_MS);
    assert.notEqual(keys.signingKey().kid, before);
  });
});
