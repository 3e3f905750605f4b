/**
 * Signing in through a team's SAML connection by the address's domain (routes/sso.ts), driven by an
 * independent identity provider (samlify's, test/support/saml-idp.ts): the domain's route and who may
 * set it, the start (two steps, the request bound to the browser), the answer that signs the member
 * in — found, linked by address, or made just in time with the connection's permissions and seats
 * counted — later sign-ins that update the name and the provider's groups, and what is refused: an
 * answer in another browser, a full team, an unasked answer while that is off, a connection turned
 * off. Requiring single sign-on turns password and passkey sign-in off for the domain's members, the
 * owners excepted, without telling a stranger anything.
 */
import { proofFor } from '../support/proof';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { PRESET_MAPPINGS } from '../../src/contract/connections';
import type { TeamDomain } from '../../src/contract/schemas/domains';
import type { TeamPublicReply } from '../../src/contract/schemas/team';
import type { Static } from 'typebox';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import type { TeamConnectionsTable } from '../../demo/server/db/schema';
import { serviceProviderUrls } from '../../demo/server/lib/saml';
import { TestIdp } from '../support/saml-idp';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
let who: Callers;
let idp: TestIdp;
let acme: string;
let connection: TeamConnectionsTable;

before(async () => {
  t = await createTestApp();
  who = await callers(t);
  idp = new TestIdp();
  acme = (
    await t.db.kysely.selectFrom('teams').select('id').where('name', '=', 'acme').executeTakeFirstOrThrow()
  ).id;
});
after(() => t.close());

/** A fresh, enabled connection of acme that acme.test signs in through, before each test. */
beforeEach(async () => {
  who = await callers(t);
  const now = t.clock.now();
  connection = await t.app.services.repos.connections.create({
    id: randomUUID(),
    team_id: acme,
    protocol: 'saml',
    preset: 'saml',
    name: 'Acme IdP',
    idp_entity_id: idp.entityId,
    sso_url: idp.ssoUrl,
    certificates: JSON.stringify([idp.pair.cert]),
    mapping: JSON.stringify(PRESET_MAPPINGS.saml),
    idp_initiated: 0,
    enabled: 1,
    default_permissions: JSON.stringify(['EDITOR']),
    tested_at: now,
    last_test: null,
    created_at: now,
    updated_at: now,
  });
  await route({ connectionId: connection.id, requireSso: false });
});

const route = async (body: { connectionId: string | null; requireSso: boolean }) => {
  const response = await api(t, 'PATCH', '/api/team/domains/acme.test', who.owner, body);
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as TeamDomain;
};

const sp = () => serviceProviderUrls(t.config.publicUrl, connection.id);
const cookieOf = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((c) => c.name === name && c.value)?.value;
const userByEmail = (email: string) =>
  t.db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

/** Step one, as the sign-in screen calls it. */
const start = (email: string, extra: Record<string, string> = {}) =>
  api(t, 'POST', '/account/sso/start', undefined, { teamName: 'acme', email, ...extra });

/**
 * A whole sign-in as the browser makes it: start, begin (the cookie), the provider's page answers
 * for `user`, the answer posted back — with this browser's cookie unless `cookie` says otherwise.
 */
async function signIn(
  email: string,
  attributes: Record<string, string | string[]> = { email },
  { cookie }: { cookie?: string | null } = {},
) {
  const started = await start(email, { returnUrl: '/manage' });
  assert.equal(started.statusCode, 200, started.body);
  const begin = new URL((started.json() as { location: string }).location);
  const begun = await t.app.inject({ method: 'GET', url: `${begin.pathname}${begin.search}` });
  assert.equal(begun.statusCode, 303, begun.body);
  const browser = cookieOf(begun, 'acct_sso');
  assert.ok(browser, 'the request is bound to a cookie');
  const page = await idp.answerRedirect(begun.headers.location as string, { email, attributes });
  const sent = cookie === undefined ? browser : cookie;
  return t.app.inject({
    method: 'POST',
    url: new URL(page.action).pathname,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://idp.example',
      ...(sent ? { cookie: `acct_sso=${sent}` } : {}),
    },
    payload: new URLSearchParams({ SAMLResponse: page.SAMLResponse, RelayState: page.RelayState }).toString(),
  });
}

const signedIn = (response: LightMyRequestResponse) => !!cookieOf(response, 'acct_session');

describe('a domain’s route to a connection', () => {
  it('is set by the team’s admins only: 401 without a token, 403 for a member, 404 for another team', async () => {
    const body = { connectionId: connection.id, requireSso: true };
    expectError(await api(t, 'PATCH', '/api/team/domains/acme.test', undefined, body), 401);
    expectError(await api(t, 'PATCH', '/api/team/domains/acme.test', who.member, body), 403, 'notAdmin');
    expectError(await api(t, 'PATCH', '/api/team/domains/acme.test', who.otherAdmin, body), 404, 'notFound');
    const set = await api(t, 'PATCH', '/api/team/domains/acme.test', who.admin, body);
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual([set.json().connectionId, set.json().requireSso], [connection.id, true]);
  });

  it('refuses another team’s connection, requiring none, and a domain not yet verified', async () => {
    const theirs = await api(t, 'POST', '/api/team/connections', who.otherAdmin, {
      preset: 'saml',
      name: 'Globex IdP',
    });
    expectError(
      await api(t, 'PATCH', '/api/team/domains/acme.test', who.owner, {
        connectionId: theirs.json().id,
        requireSso: false,
      }),
      400,
      'unknownConnection',
      'connectionId',
    );
    expectError(
      await api(t, 'PATCH', '/api/team/domains/acme.test', who.owner, {
        connectionId: null,
        requireSso: true,
      }),
      400,
      'noConnection',
      'connectionId',
    );
    await api(t, 'POST', '/api/team/domains', who.owner, { domain: 'acme-pending.example' });
    expectError(
      await api(t, 'PATCH', '/api/team/domains/acme-pending.example', who.owner, {
        connectionId: connection.id,
        requireSso: false,
      }),
      409,
      'notVerified',
    );
  });

  it('shows in the team’s public details only while the connection is on, and is audited', async () => {
    const details = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/team/public/acme' })).json() as Static<
        typeof TeamPublicReply
      >;
    assert.deepEqual((await details()).ssoDomains, [{ domain: 'acme.test', required: false }]);
    await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { enabled: false });
    assert.equal((await details()).ssoDomains, undefined);
    expectError(await start('new.person@acme.test'), 404, 'noConnection');
    const { events } = (await api(t, 'GET', '/api/team/audit?kind=domain', who.owner)).json() as {
      events: Array<{ action: string; detail: Record<string, unknown> }>;
    };
    const last = events.find((event) => event.action === 'domain.signIn');
    assert.deepEqual(last?.detail, { connection: 'Acme IdP', required: false });
  });
});

describe('signing in by the address’s domain', () => {
  it('says the same for any address that does not sign in through one, and for an unknown team', async () => {
    const bodies = [
      await start('someone@elsewhere.example'),
      await api(t, 'POST', '/account/sso/start', undefined, { teamName: 'nope', email: 'a@acme.test' }),
    ].map((response) => {
      expectError(response, 404, 'noConnection');
      return response.body;
    });
    assert.equal(new Set(bodies).size, 1);
  });

  it('names the team a routed domain signs in to, for the team step; nothing for any other', async () => {
    const team = (domain: string) =>
      t.app.inject({ method: 'GET', url: `/account/sso/team?domain=${domain}` });
    const found = await team('ACME.test');
    assert.equal(found.statusCode, 200, found.body);
    assert.deepEqual(found.json(), { name: 'acme' });
    expectError(await team('globex.test'), 404, 'noTeam');
    await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { enabled: false });
    expectError(await team('acme.test'), 404, 'noTeam');
  });

  it('makes a new member just in time, with the connection’s permissions and the provider’s groups', async () => {
    await api(t, 'POST', '/api/team/groups', who.owner, { name: 'Engineering' });
    const before = (
      await t.db.kysely
        .selectFrom('teams')
        .select('member_count')
        .where('id', '=', acme)
        .executeTakeFirstOrThrow()
    ).member_count;
    const answer = await signIn('grace@acme.test', {
      email: 'grace@acme.test',
      givenName: 'Grace',
      familyName: 'Hopper',
      groups: ['engineering', 'Unknown group'],
    });
    assert.equal(answer.statusCode, 303, answer.body);
    assert.equal(answer.headers.location, '/manage');
    assert.ok(signedIn(answer), 'a session');
    const grace = await userByEmail('grace@acme.test');
    assert.equal(grace?.name, 'Grace Hopper');
    assert.equal(grace?.password_hash, null);
    const permissions = await t.app.services.repos.users.permissionsOf(grace!.id);
    assert.deepEqual([...permissions], ['EDITOR']);
    const groups = await t.db.kysely
      .selectFrom('group_members')
      .innerJoin('groups', 'groups.id', 'group_members.group_id')
      .select('groups.name')
      .where('group_members.user_id', '=', grace!.id)
      .execute();
    assert.deepEqual(
      groups.map((g) => g.name),
      ['Engineering'],
    );
    const after = (
      await t.db.kysely
        .selectFrom('teams')
        .select('member_count')
        .where('id', '=', acme)
        .executeTakeFirstOrThrow()
    ).member_count;
    assert.equal(Number(after), Number(before) + 1);
    const { events } = (await api(t, 'GET', '/api/team/audit', who.owner)).json() as {
      events: Array<{ action: string; target: string }>;
    };
    assert.ok(events.some((e) => e.action === 'member.joinedThroughSso' && e.target === 'grace@acme.test'));
    const log = await t.db.kysely
      .selectFrom('activity_events')
      .select('detail')
      .where('user_id', '=', grace!.id)
      .execute();
    assert.ok(
      log.some((row) => JSON.parse(row.detail).method === 'sso'),
      'in the security log',
    );
    // The member list names the way in.
    const listed = (await api(t, 'GET', '/api/team/members?q=grace', who.owner)).json() as {
      members: Array<{ email: string; methods: string[] }>;
    };
    assert.deepEqual(listed.members.find((m) => m.email === 'grace@acme.test')?.methods, ['sso']);
  });

  it('updates the name and the groups the provider gave on later sign-ins; an admin’s stay', async () => {
    await api(t, 'POST', '/api/team/groups', who.owner, { name: 'Sales' });
    await api(t, 'POST', '/api/team/groups', who.owner, { name: 'Support' });
    const first = await signIn('linus@acme.test', {
      email: 'linus@acme.test',
      givenName: 'Linus',
      familyName: 'T',
      groups: ['Sales'],
    });
    assert.ok(signedIn(first));
    const linus = (await userByEmail('linus@acme.test'))!;
    const support = await t.db.kysely
      .selectFrom('groups')
      .select('id')
      .where('name', '=', 'Support')
      .executeTakeFirstOrThrow();
    const added = await api(t, 'PUT', `/api/team/groups/${support.id}/members/${linus.id}`, who.owner);
    assert.equal(added.statusCode, 200, added.body);
    const again = await signIn('linus@acme.test', {
      email: 'linus@acme.test',
      givenName: 'Linus',
      familyName: 'Torvalds',
      groups: [],
    });
    assert.ok(signedIn(again));
    assert.equal((await userByEmail('linus@acme.test'))?.name, 'Linus Torvalds');
    const groups = await t.db.kysely
      .selectFrom('group_members')
      .innerJoin('groups', 'groups.id', 'group_members.group_id')
      .select('groups.name')
      .where('group_members.user_id', '=', linus.id)
      .execute();
    assert.deepEqual(
      groups.map((g) => g.name),
      ['Support'],
      'Sales went with the provider; Support stays',
    );
  });

  it('links an existing member by address and signs them in as themselves', async () => {
    const bob = (await userByEmail('bob@acme.test'))!;
    const answer = await signIn('bob@acme.test');
    assert.ok(signedIn(answer), answer.body);
    const linked = await t.db.kysely
      .selectFrom('external_accounts')
      .select('user_id')
      .where('provider', '=', `sso:${connection.id}`)
      .where('subject', '=', 'bob@acme.test')
      .executeTakeFirst();
    assert.equal(linked?.user_id, bob.id);
  });

  it('refuses an answer that reaches another browser than the one that asked', async () => {
    for (const cookie of [null, 'another-browser']) {
      const answer = await signIn('eve@acme.test', { email: 'eve@acme.test' }, { cookie });
      assert.equal(answer.statusCode, 303);
      assert.equal(answer.headers.location, '/login/acme?Error=SsoFailed&ReturnUrl=%2Fmanage');
      assert.ok(!signedIn(answer));
    }
    assert.equal(await userByEmail('eve@acme.test'), undefined, 'nobody was made');
  });

  it('tells a full team so and makes no half member', async () => {
    const team = await t.db.kysely
      .selectFrom('teams')
      .select(['member_count', 'seat_limit'])
      .where('id', '=', acme)
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('teams')
      .set({ seat_limit: Number(team.member_count) })
      .where('id', '=', acme)
      .execute();
    try {
      const answer = await signIn('full@acme.test');
      assert.equal(answer.headers.location, '/login/acme?Error=SeatLimit&ReturnUrl=%2Fmanage');
      assert.ok(!signedIn(answer));
      assert.equal(await userByEmail('full@acme.test'), undefined);
    } finally {
      await t.db.kysely
        .updateTable('teams')
        .set({ seat_limit: team.seat_limit })
        .where('id', '=', acme)
        .execute();
    }
  });

  it('lets a request whose answer never came go when the next one is sent', async () => {
    const begin = async () => {
      const started = await start('idle@acme.test');
      const url = new URL((started.json() as { location: string }).location);
      await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    };
    const waiting = () =>
      t.db.kysely
        .selectFrom('saml_requests')
        .select('id')
        .where('connection_id', '=', connection.id)
        .execute();
    await begin();
    assert.equal((await waiting()).length, 1);
    t.clock.offset += 11 * 60_000;
    try {
      await begin();
      assert.equal((await waiting()).length, 1, 'the abandoned one is gone');
    } finally {
      t.clock.offset -= 11 * 60_000;
    }
  });

  it('signs nobody in through a connection turned off meanwhile', async () => {
    const started = await start('late@acme.test');
    const begin = new URL((started.json() as { location: string }).location);
    await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { enabled: false });
    const begun = await t.app.inject({ method: 'GET', url: `${begin.pathname}${begin.search}` });
    assert.equal(begun.statusCode, 303);
    assert.equal(begun.headers.location, '/login/acme?Error=SsoFailed');
  });

  it('takes an answer sent unasked only once an admin turned that on', async () => {
    const unasked = async () => {
      const response = await idp.answer(sp(), null, { email: 'ivy@acme.test' });
      return t.app.inject({
        method: 'POST',
        url: new URL(sp().acsUrl).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example' },
        payload: new URLSearchParams({ SAMLResponse: response }).toString(),
      });
    };
    const refused = await unasked();
    assert.equal(refused.headers.location, '/login/acme?Error=SsoFailed');
    assert.ok(!signedIn(refused));
    const on = await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, {
      idpInitiated: true,
    });
    assert.equal(on.json().idpInitiated, true);
    const taken = await unasked();
    assert.equal(taken.headers.location, '/');
    assert.ok(signedIn(taken));
  });

  it('asks for the second step when the team requires two-step sign-in', async () => {
    await t.db.kysely.updateTable('teams').set({ require_two_step: 1 }).where('id', '=', acme).execute();
    try {
      const answer = await signIn('tess@acme.test');
      assert.equal(answer.headers.location, '/login/acme?TwoStep=enrol&ReturnUrl=%2Fmanage');
      assert.ok(!signedIn(answer));
    } finally {
      await t.db.kysely.updateTable('teams').set({ require_two_step: 0 }).where('id', '=', acme).execute();
    }
  });
});

describe('requiring single sign-on for a domain', () => {
  const password = (email: string, secret = DEMO_PASSWORD) =>
    t.app.inject({
      method: 'POST',
      url: '/account/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ teamName: 'acme', email, password: secret }),
    });

  it('refuses a member’s right password, says nothing new for a wrong one, and keeps owners able', async () => {
    // Bob, an editor, signs in with Google in the seed: here he has a password too.
    const hash = await t.app.services.hasher.hash(DEMO_PASSWORD);
    await t.db.kysely
      .updateTable('users')
      .set({ password_hash: hash })
      .where('email', '=', 'bob@acme.test')
      .execute();
    assert.equal((await password('bob@acme.test')).statusCode, 200, 'allowed before');
    await route({ connectionId: connection.id, requireSso: true });
    expectError(await password('bob@acme.test'), 403, 'ssoRequired');
    const wrong = await password('bob@acme.test', 'not the password');
    const unknown = await password('nobody@acme.test', 'not the password');
    assert.deepEqual([wrong.statusCode, wrong.body], [unknown.statusCode, unknown.body]);
    assert.equal((await password('ada@acme.test')).statusCode, 200, 'the owner');
    await route({ connectionId: connection.id, requireSso: false });
    await t.app.services.lockout.clear('acme', 'bob@acme.test');
    assert.equal((await password('bob@acme.test')).statusCode, 200, 'allowed again');
  });

  it('mails no reset link to a member who must use it, with the same answer; owners still get one', async () => {
    const ask = async (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/password/request',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ teamName: 'acme', userName: email, proof: await proofFor(t.app) }),
      });
    const issued = async (email: string) =>
      (
        await t.db.kysely
          .selectFrom('password_resets')
          .innerJoin('users', 'users.id', 'password_resets.user_id')
          .select('password_resets.user_id')
          .where('users.email', '=', email)
          .execute()
      ).length;
    await route({ connectionId: connection.id, requireSso: true });
    try {
      const [bob, nobody] = [await ask('bob@acme.test'), await ask('nobody@acme.test')];
      assert.deepEqual([bob.statusCode, bob.body], [nobody.statusCode, nobody.body]);
      assert.equal(await issued('bob@acme.test'), 0, 'no link for a member who must use single sign-on');
      assert.equal((await ask('ada@acme.test')).statusCode, 200);
      assert.equal(await issued('ada@acme.test'), 1, 'the owner keeps the password');
    } finally {
      await route({ connectionId: connection.id, requireSso: false });
    }
  });
});
