import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
let who: Callers;
before(async () => {
  t = await createTestApp();
  who = await callers(t);
});
after(() => t.close());

const acme = () =>
  t.db.kysely.selectFrom('teams').selectAll().where('name', '=', 'acme').executeTakeFirstOrThrow();

describe('GET /api/team', () => {
  it('refuses without a token (401) and a member who is not an admin (403 notAdmin)', async () => {
    expectError(await api(t, 'GET', '/api/team'), 401);
    expectError(await api(t, 'GET', '/api/team', who.member), 403, 'notAdmin');
  });

  it("answers another team's admin with their own team only", async () => {
    const response = await api(t, 'GET', '/api/team', who.otherAdmin);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().name, 'globex');
    assert.deepEqual(response.json().seats, { used: 1, limit: 5, members: 1, pending: 0 });
    assert.equal(response.json().callerIsOwner, false);
  });

  it("gives acme's admins the seats, storage, sign-in methods and support panel from the database", async () => {
    const response = await api(t, 'GET', '/api/team', who.owner);
    assert.equal(response.statusCode, 200, response.body);
    const team = response.json();
    assert.equal(team.name, 'acme');
    assert.equal(team.displayName, 'Acme');
    assert.deepEqual(team.seats, { used: 4, limit: 10, members: 4, pending: 0 });
    assert.deepEqual(team.storage, { usedBytes: 90_000_000_000, limitBytes: 100_000_000_000 });
    assert.deepEqual(team.configured, { google: true, azure: true, auth0: true, apple: true });
    assert.deepEqual(team.loginOptions, {
      local: true,
      google: true,
      azure: true,
      auth0: true,
      apple: true,
      requireTwoStep: false,
      passkeys: true,
      emailCode: false,
    });
    assert.deepEqual(team.support, {
      name: 'Priya Natarajan',
      email: 'priya.natarajan@accounts.example',
      phone: '+44 20 7946 0321',
    });
    assert.equal(team.callerIsOwner, true);
    const byAdmin = await api(t, 'GET', '/api/team', who.admin);
    assert.equal(byAdmin.statusCode, 200);
    assert.equal(byAdmin.json().callerIsOwner, false);
  });
});

describe('PUT /api/team/seat-limit', () => {
  beforeEach(async () => {
    await t.db.kysely.updateTable('teams').set({ seat_limit: 10 }).where('name', '=', 'acme').execute();
  });
  const put = (token: string | undefined, body: unknown) =>
    api(t, 'PUT', '/api/team/seat-limit', token, body);

  it("is for owners only: no token 401, member, admin and another team's admin 403 notOwner", async () => {
    expectError(await put(undefined, { limit: 20 }), 401);
    expectError(await put(who.member, { limit: 20 }), 403, 'notOwner');
    expectError(await put(who.admin, { limit: 20 }), 403, 'notOwner');
    expectError(await put(who.otherAdmin, { limit: 20 }), 403, 'notOwner');
    assert.equal((await acme()).seat_limit, 10);
  });

  it('sets the limit and answers the team', async () => {
    const response = await put(who.owner, { limit: 25 });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().seats.limit, 25);
    assert.equal((await acme()).seat_limit, 25);
  });

  it('refuses a limit out of 1–100,000 or not a whole number (400 invalidLimit at the field)', async () => {
    for (const limit of [0, -1, 100_001, 1.5, '12', null]) {
      expectError(await put(who.owner, { limit }), 400, 'invalidLimit', 'limit');
    }
    expectError(await put(who.owner, {}), 400, 'invalidLimit', 'limit');
    assert.equal((await acme()).seat_limit, 10);
  });

  it('never goes below the seats in use (409 belowCount)', async () => {
    const used = (await api(t, 'GET', '/api/team', who.owner)).json().seats.used as number;
    expectError(await put(who.owner, { limit: used - 1 }), 409, 'belowCount', 'limit');
    assert.equal((await put(who.owner, { limit: used })).statusCode, 200);
  });
});

describe('PATCH /api/team/login-options', () => {
  const patch = (token: string | undefined, body: unknown) =>
    api(t, 'PATCH', '/api/team/login-options', token, body);
  const publicTeam = async (name: string) =>
    (await api(t, 'GET', `/api/team/public/${name}`)).json() as Record<string, unknown>;
  beforeEach(async () => {
    await t.db.kysely
      .updateTable('teams')
      .set({ local_enabled: 1, google_enabled: 1, azure_enabled: 1, auth0_enabled: 1, apple_enabled: 1 })
      .where('name', '=', 'acme')
      .execute();
  });

  it('refuses without a token (401) and a member (403 notAdmin)', async () => {
    expectError(await patch(undefined, { google: false }), 401);
    expectError(await patch(who.member, { google: false }), 403, 'notAdmin');
    assert.ok('googleOptions' in (await publicTeam('acme')));
  });

  it("changes only the caller's own team", async () => {
    // Carol is globex's admin: her call is about globex, which has no Google configured.
    expectError(await patch(who.otherAdmin, { google: true }), 400, 'notConfigured', 'google');
    assert.equal((await patch(who.otherAdmin, { local: true })).statusCode, 200);
    assert.ok('googleOptions' in (await publicTeam('acme')));
  });

  it('turns methods off and on, and the public team (the sign-in screen) follows at once', async () => {
    const off = await patch(who.admin, { google: false, auth0: false });
    assert.equal(off.statusCode, 200, off.body);
    assert.deepEqual(off.json().loginOptions, {
      local: true,
      google: false,
      azure: true,
      auth0: false,
      apple: true,
      requireTwoStep: false,
      passkeys: true,
      emailCode: false,
    });
    const shown = await publicTeam('acme');
    assert.ok(!('googleOptions' in shown) && !('auth0Options' in shown));
    assert.ok('localOptions' in shown && 'azureOptions' in shown);
    assert.equal((await patch(who.owner, { google: true })).statusCode, 200);
    assert.ok('googleOptions' in (await publicTeam('acme')));
  });

  it('refuses a provider the team has not configured (400 notConfigured at that field)', async () => {
    await t.db.kysely.deleteFrom('team_providers').where('kind', '=', 'apple').execute();
    await t.db.kysely.updateTable('teams').set({ apple_enabled: 0 }).where('name', '=', 'acme').execute();
    try {
      expectError(await patch(who.owner, { apple: true }), 400, 'notConfigured', 'apple');
      // Turning off what is not configured is fine.
      assert.equal((await patch(who.owner, { apple: false })).statusCode, 200);
    } finally {
      const acmeId = (await acme()).id;
      await t.db.kysely
        .insertInto('team_providers')
        .values({
          team_id: acmeId,
          kind: 'apple',
          issuer: 'demo:apple',
          client_id: 'acct-portal-apple',
          client_secret: 'demo-secret-apple-not-for-production',
          allowed_tenant: null,
          allowed_domain: null,
          link_by_email: 1,
        })
        .execute();
    }
  });

  it('never turns off the last method (409 lastMethod), even when two admins try at once', async () => {
    expectError(await patch(who.otherAdmin, { local: false }), 409, 'lastMethod');
    assert.equal((await patch(who.owner, { azure: false, auth0: false, apple: false })).statusCode, 200);
    const [a, b] = await Promise.all([
      patch(who.owner, { local: false }),
      patch(who.admin, { google: false }),
    ]);
    assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 409], `${a.body} ${b.body}`);
    const team = await acme();
    assert.equal(
      team.local_enabled + team.google_enabled + team.azure_enabled + team.auth0_enabled + team.apple_enabled,
      1,
    );
  });

  it('turns passkey sign-in off and on for its own team only: public details and audit follow', async () => {
    try {
      expectError(await patch(undefined, { passkeys: false }), 401);
      expectError(await patch(who.member, { passkeys: false }), 403, 'notAdmin');
      // Another team's admin changes their own team, never acme.
      assert.equal((await patch(who.otherAdmin, { passkeys: false })).statusCode, 200);
      assert.ok('passkeyOptions' in (await publicTeam('acme')));
      assert.ok(!('passkeyOptions' in (await publicTeam('globex'))));
      const off = await patch(who.admin, { passkeys: false });
      assert.equal(off.statusCode, 200, off.body);
      assert.equal(off.json().loginOptions.passkeys, false);
      assert.equal((await acme()).passkeys_enabled, 0);
      assert.ok(!('passkeyOptions' in (await publicTeam('acme'))));
      const audit = (await api(t, 'GET', '/api/team/audit?kind=team', who.owner)).json();
      const latest = audit.events.find((e: { action: string }) => e.action === 'team.loginOptions');
      assert.deepEqual(latest.detail, { passkeys: false });
      // Passkeys are not a method of their own: with them on, the last method still cannot go.
      await patch(who.owner, { google: false, azure: false, auth0: false, apple: false });
      expectError(await patch(who.owner, { local: false, passkeys: true }), 409, 'lastMethod');
      assert.equal((await patch(who.owner, { passkeys: true })).statusCode, 200);
      assert.ok('passkeyOptions' in (await publicTeam('acme')));
    } finally {
      await t.db.kysely.updateTable('teams').set({ passkeys_enabled: 1 }).execute();
    }
  });

  it('refuses an empty change, unknown keys and non-booleans (400)', async () => {
    for (const body of [{}, { facebook: true }, { google: 'yes' }])
      expectError(await patch(who.owner, body), 400);
  });
});
