import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { addUser } from '../support/team-admin';
import { createTestApp, tokenFor, type TestApp } from '../support/test-server';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

async function addPasswordUser(email: string, name: string, permissions: Array<'OWNER' | 'SPOKE'>) {
  const id = await addUser(t, { email, name, permissions });
  const hash = await t.app.services.hasher.hash(DEMO_PASSWORD);
  await t.db.kysely.updateTable('users').set({ password_hash: hash }).where('id', '=', id).execute();
  return id;
}

const remove = (token: string | null, body: unknown) =>
  t.app.inject({
    method: 'DELETE',
    url: '/api/user',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify(body),
  });

const login = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/account/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ teamName: 'acme', email, password: DEMO_PASSWORD }),
  });

describe('DELETE /api/user', () => {
  it('deletes the account after the password: its sign-in, token and data are gone, the audit says so', async () => {
    const id = await addPasswordUser('kai@acme.test', 'Kai', ['SPOKE']);
    assert.equal((await login('kai@acme.test')).statusCode, 200);
    const { accessToken } = await tokenFor(t.app, 'kai@acme.test');
    assert.equal((await remove(accessToken, {})).json().code, 'passwordRequired');
    assert.equal((await remove(accessToken, { password: 'wrong-one' })).json().code, 'invalidPassword');
    const gone = await remove(accessToken, { password: DEMO_PASSWORD });
    assert.equal(gone.statusCode, 204, gone.body);
    assert.equal((await login('kai@acme.test')).statusCode, 401);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/user/sessions',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    assert.equal(again.statusCode, 401);
    const db = t.db.kysely;
    for (const table of ['sessions', 'activity_events', 'known_devices', 'user_permissions'] as const) {
      const rows = await db.selectFrom(table).select('user_id').where('user_id', '=', id).execute();
      assert.deepEqual(rows, [], table);
    }
    const audit = await db
      .selectFrom('audit_events')
      .selectAll()
      .where('actor_id', '=', id)
      .where('action', '=', 'member.removed')
      .execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.target, 'kai@acme.test');
    assert.deepEqual(JSON.parse(audit[0]!.detail), { self: true, name: 'Kai' });
  });

  it("refuses the team's last owner, and allows an owner who is not the last", async () => {
    const ada = await tokenFor(t.app, 'ada@acme.test');
    const last = await remove(ada.accessToken, { password: DEMO_PASSWORD });
    assert.equal(last.statusCode, 409);
    assert.equal(last.json().code, 'lastOwner');
    assert.equal((await login('ada@acme.test')).statusCode, 200);
    await addPasswordUser('lou@acme.test', 'Lou', ['OWNER']);
    const lou = await tokenFor(t.app, 'lou@acme.test');
    assert.equal((await remove(lou.accessToken, { password: DEMO_PASSWORD })).statusCode, 204);
  });

  it('needs a token, and a recent sign-in from a user without a password', async () => {
    assert.equal((await remove(null, { password: DEMO_PASSWORD })).statusCode, 401);
    const bob = await tokenFor(t.app, 'bob@acme.test');
    t.clock.advance(6 * 60_000);
    try {
      const late = await remove(bob.accessToken, {});
      assert.equal(late.statusCode, 403);
      assert.equal(late.json().code, 'reauthRequired');
    } finally {
      t.clock.offset = 0;
    }
  });
});
