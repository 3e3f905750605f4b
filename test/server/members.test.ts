import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { signInAtProvider } from '../support/idp';
import { addUser, api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, sessionFor, tokenFor, type TestApp } from '../support/test-server';

let t: TestApp;
let who: Callers;
before(async () => {
  t = await createTestApp({ LOGIN_ADDRESS_LIMIT: '10000' });
  who = await callers(t);
});
after(() => t.close());
beforeEach(async () => {
  await t.db.kysely.deleteFrom('login_failures').execute();
});

interface MemberJson {
  id: string;
  name: string;
  email: string;
  permissions: string[];
  methods: string[];
  lastSignInAt: string | null;
  disabled: boolean;
  groups: unknown[];
}
interface ListJson {
  members: MemberJson[];
  next: string | null;
  total: number;
  totalExact: boolean;
}

const list = async (query = '', token = who.owner): Promise<ListJson> => {
  const response = await api(t, 'GET', `/api/team/members${query}`, token);
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as ListJson;
};
const names = (page: ListJson) => page.members.map((m) => m.name);
const patch = (id: string, body: unknown, token = who.owner) =>
  api(t, 'PATCH', `/api/team/members/${id}`, token, body);
const remove = (id: string, token = who.owner) => api(t, 'DELETE', `/api/team/members/${id}`, token);

let counter = 0;
/** A member of acme of this test's own, so changing them disturbs no other test. */
async function member(
  permissions: Array<'OWNER' | 'ADMIN' | 'EDITOR' | 'SPOKE'> = ['SPOKE'],
  name = 'Tess Temp',
) {
  const email = `temp${++counter}@acme.test`;
  const id = await addUser(t, { email, name, permissions });
  return { id, email, token: async () => (await tokenFor(t.app, email)).accessToken };
}

describe('who may list and change members', () => {
  it('refuses without a token (401) and a member (403 notAdmin)', async () => {
    const bob = who.ids['bob@acme.test']!;
    for (const [method, url, body] of [
      ['GET', '/api/team/members', undefined],
      ['PATCH', `/api/team/members/${bob}`, { disabled: true }],
      ['DELETE', `/api/team/members/${bob}`, undefined],
    ] as const) {
      expectError(await api(t, method, url, undefined, body), 401);
      expectError(await api(t, method, url, who.member, body), 403, 'notAdmin');
    }
  });

  it("shows another team's admin their own members only, and acme's ids are 404 to them", async () => {
    assert.deepEqual(names(await list('', who.otherAdmin)), ['Carol Diaz']);
    assert.deepEqual(names(await list('?q=ada', who.otherAdmin)), []);
    const bob = who.ids['bob@acme.test']!;
    expectError(await patch(bob, { disabled: true }, who.otherAdmin), 404);
    expectError(await remove(bob, who.otherAdmin), 404);
    expectError(await patch(who.ids['carol@globex.test']!, { disabled: true }, who.owner), 404);
    assert.equal((await list()).members.find((m) => m.email === 'bob@acme.test')!.disabled, false);
  });
});

describe('GET /api/team/members', () => {
  it('lists the team by name with permissions, sign-in methods and last sign-in', async () => {
    const page = await list('?q=');
    assert.deepEqual(names(page).slice(0, 4), ['Ada Lovelace', 'Alan Admin', 'Bob Stone', 'Lee Locke']);
    const ada = page.members[0]!;
    assert.deepEqual(
      { permissions: ada.permissions, methods: ada.methods, disabled: ada.disabled, groups: ada.groups },
      { permissions: ['OWNER'], methods: ['password', 'google'], disabled: false, groups: [] },
    );
    assert.deepEqual(page.members[2]!.methods, ['google'], 'bob signs in with Google only');
    assert.equal(page.total, page.members.length);
    assert.equal(page.totalExact, true);
  });

  it('keeps the last sign-in of every method', async () => {
    const before = t.clock.now();
    const login = await api(t, 'POST', '/account/login', undefined, {
      teamName: 'acme',
      email: 'ada@acme.test',
      password: DEMO_PASSWORD,
    });
    assert.equal(login.statusCode, 200);
    const ada = (await list('?q=ada')).members[0]!;
    assert.ok(ada.lastSignInAt && Date.parse(ada.lastSignInAt) >= before - 1000, ada.lastSignInAt ?? 'null');
  });

  it('pages with a cursor (limit 1–100), each member once', async () => {
    for (let i = 0; i < 5; i++) await member(['SPOKE'], `Page Person ${i}`);
    const all = await list('?limit=100');
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const page = await list(`?limit=2${next ? `&cursor=${encodeURIComponent(next)}` : ''}`);
      assert.ok(page.members.length <= 2);
      seen.push(...page.members.map((m) => m.id));
      next = page.next;
    } while (next);
    assert.deepEqual(
      seen,
      all.members.map((m) => m.id),
    );
    for (const limit of ['0', '101', 'x', '-1', '1.5'])
      expectError(
        await api(t, 'GET', `/api/team/members?limit=${limit}`, who.owner),
        400,
        'invalidLimit',
        'limit',
      );
    expectError(
      await api(t, 'GET', '/api/team/members?cursor=garbage', who.owner),
      400,
      'invalidCursor',
      'cursor',
    );
  });

  it('finds members by the start of any word of the name or of the e-mail, in any case and accent', async () => {
    await member(['SPOKE'], 'José María Núñez');
    const find = async (q: string) => names(await list(`?q=${encodeURIComponent(q)}`));
    assert.deepEqual(await find('lov'), ['Ada Lovelace']);
    assert.deepEqual(await find('ADA'), ['Ada Lovelace'], 'once, though name and e-mail both match');
    assert.deepEqual(await find('stone'), ['Bob Stone']);
    assert.deepEqual(await find('bob@'), ['Bob Stone']);
    assert.deepEqual(await find('lee lo'), ['Lee Locke']);
    assert.deepEqual(await find('nunez'), ['José María Núñez']);
    assert.deepEqual(await find('MARÍA n'), ['José María Núñez']);
    assert.deepEqual(await find('acme.test'), [], 'a prefix, not any part');
    assert.deepEqual(await find('ovelace'), []);
  });

  it('pages through search results, counting them (up to 100)', async () => {
    for (let i = 0; i < 7; i++) await member(['SPOKE'], `Finder ${String.fromCharCode(65 + i)}`);
    const first = await list('?q=finder&limit=3');
    assert.equal(first.total, 7);
    assert.equal(first.totalExact, true);
    const ids = [...first.members.map((m) => m.id)];
    let next = first.next;
    while (next) {
      const page = await list(`?q=finder&limit=3&cursor=${encodeURIComponent(next)}`);
      ids.push(...page.members.map((m) => m.id));
      next = page.next;
    }
    assert.equal(new Set(ids).size, 7);
    assert.equal(ids.length, 7);
  });
});

describe('PATCH /api/team/members/:id', () => {
  it('changes permissions; only an owner makes or changes owners (403 notOwner)', async () => {
    const m = await member(['SPOKE']);
    const response = await patch(m.id, { permissions: ['EDITOR', 'APPROVER'] }, who.admin);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json().permissions, ['APPROVER', 'EDITOR']);
    expectError(await patch(m.id, { permissions: ['OWNER'] }, who.admin), 403, 'notOwner');
    expectError(await patch(who.ids['ada@acme.test']!, { disabled: true }, who.admin), 403, 'notOwner');
    expectError(
      await patch(who.ids['ada@acme.test']!, { permissions: ['OWNER', 'EDITOR'] }, who.admin),
      403,
      'notOwner',
    );
    assert.deepEqual((await patch(m.id, { permissions: ['OWNER'] })).json().permissions, ['OWNER']);
    assert.equal((await patch(m.id, { permissions: ['SPOKE'] })).statusCode, 200);
  });

  it('refuses bad permissions and empty changes (400), and unknown ids (404)', async () => {
    const m = await member();
    for (const permissions of [['ROOT'], ['SPOKE', 'SPOKE'], 'SPOKE'])
      expectError(await patch(m.id, { permissions }), 400, 'invalidPermission', 'permissions');
    expectError(await patch(m.id, {}), 400);
    expectError(await patch(m.id, { disabled: 'yes' }), 400);
    expectError(await patch(m.id, { name: 'x' }), 400);
    expectError(await patch('no-such-member', { disabled: true }), 404);
  });

  it('never lets an admin lock themselves out (409 self)', async () => {
    const alan = who.ids['alan@acme.test']!;
    expectError(await patch(alan, { permissions: ['EDITOR'] }, who.admin), 409, 'self');
    expectError(await patch(alan, { disabled: true }, who.admin), 409, 'self');
    assert.equal((await patch(alan, { permissions: ['ADMIN', 'EDITOR'] }, who.admin)).statusCode, 200);
    assert.equal((await patch(alan, { permissions: ['ADMIN'] }, who.admin)).statusCode, 200);
  });

  it('keeps an owner who is not disabled (409 lastOwner), also against two owners at once', async () => {
    const ada = who.ids['ada@acme.test']!;
    expectError(await patch(ada, { permissions: ['ADMIN'] }), 409, 'lastOwner');
    const olga = await member(['OWNER'], 'Olga Owner');
    const olgaToken = await olga.token();
    // Each owner takes the other's OWNER away at the same time: one must lose.
    const answers = await Promise.all([
      patch(olga.id, { permissions: ['ADMIN'] }, who.owner),
      patch(ada, { permissions: ['ADMIN'] }, olgaToken),
    ]);
    // The loser finds either no owner left to spare (409) or that it is no owner any more (403).
    const statuses = answers.map((a) => a.statusCode).sort();
    assert.equal(statuses[0], 200, answers.map((a) => a.body).join(' '));
    assert.ok([403, 409].includes(statuses[1]!), answers.map((a) => a.body).join(' '));
    const owners = (await list('?limit=100')).members.filter(
      (m) => m.permissions.includes('OWNER') && !m.disabled,
    );
    assert.equal(owners.length, 1);
    // Put things back: ada the only owner again.
    if (!owners.some((o) => o.id === ada)) {
      assert.equal((await patch(ada, { permissions: ['OWNER'] }, olgaToken)).statusCode, 200);
      assert.equal(
        (
          await patch(
            olga.id,
            { permissions: ['ADMIN'] },
            await tokenFor(t.app, 'ada@acme.test').then((x) => x.accessToken),
          )
        ).statusCode,
        200,
      );
    }
    who = await callers(t);
    await remove(olga.id);
  });
});

describe('disabled members', () => {
  it('stops their token at its next call, ends their sessions, and counts them as a seat', async () => {
    const m = await member(['SPOKE']);
    const token = await m.token();
    const session = await sessionFor(t.app, m.email);
    const userinfo = () => api(t, 'GET', '/connect/userinfo', token);
    assert.equal((await userinfo()).statusCode, 200);
    assert.equal((await userinfo()).statusCode, 200, 'kept from the first call');
    const seats = (await api(t, 'GET', '/api/team', who.owner)).json().seats;
    const response = await patch(m.id, { disabled: true }, who.admin);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().disabled, true);
    expectError(await userinfo(), 401);
    const check = await t.app.inject({
      method: 'POST',
      url: '/account/check',
      headers: { cookie: `acct_session=${session.token}`, origin: 'https://suite.example.test' },
    });
    assert.equal(check.statusCode, 200, check.body);
    assert.equal(check.json().authenticated, false);
    assert.deepEqual((await api(t, 'GET', '/api/team', who.owner)).json().seats, seats);
    const enabled = await patch(m.id, { disabled: false }, who.admin);
    assert.equal(enabled.statusCode, 200, enabled.body);
    assert.equal(enabled.json().disabled, false);
    expectError(await userinfo(), 401, undefined, undefined);
    assert.equal(
      (await api(t, 'GET', '/connect/userinfo', await m.token())).statusCode,
      200,
      'a new token works',
    );
  });

  it('refuses their password sign-in, saying why only after the right password', async () => {
    const email = `pw${++counter}@acme.test`;
    const id = await addUser(t, { email, name: 'Pat Password', permissions: ['SPOKE'] });
    const hash = await t.app.services.hasher.hash(DEMO_PASSWORD);
    await t.db.kysely.updateTable('users').set({ password_hash: hash }).where('id', '=', id).execute();
    const login = (password: string) =>
      api(t, 'POST', '/account/login', undefined, { teamName: 'acme', email, password });
    assert.equal((await login(DEMO_PASSWORD)).statusCode, 200);
    await patch(id, { disabled: true });
    const refused = await login(DEMO_PASSWORD);
    const wrong = await login('not the password');
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'disabled');
    assert.equal(wrong.statusCode, 401);
    assert.deepEqual(wrong.json(), { message: 'invalid credentials' });
    assert.equal(
      refused.cookies.find((c) => c.name === 'acct_session'),
      undefined,
    );
  });

  it('refuses their provider sign-in (UserDisabled)', async () => {
    const bob = who.ids['bob@acme.test']!;
    await patch(bob, { disabled: true });
    try {
      const started = await t.app.inject({
        method: 'POST',
        url: '/account/google',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'teamName=acme',
      });
      const browser = started.cookies.find((c) => c.name === 'acct_oauth')!.value;
      const back = await signInAtProvider(
        String(started.headers.location),
        'bob',
        `${t.config.publicUrl}/account/callback/`,
      );
      const callback = await t.app.inject({
        method: 'GET',
        url: `${back.pathname}${back.search}`,
        headers: { cookie: `acct_oauth=${browser}` },
      });
      assert.equal(callback.headers.location, '/login/acme?Error=UserDisabled');
    } finally {
      await patch(bob, { disabled: false });
    }
  });
});

describe('DELETE /api/team/members/:id', () => {
  it('removes a member: gone from the list, the seat free, their token dead', async () => {
    const m = await member(['EDITOR'], 'Remy Removed');
    const token = await m.token();
    const before = (await api(t, 'GET', '/api/team', who.owner)).json().seats.members as number;
    const response = await remove(m.id, who.admin);
    assert.equal(response.statusCode, 204, response.body);
    assert.equal(response.body, '');
    assert.deepEqual(names(await list('?q=remy')), []);
    assert.equal((await api(t, 'GET', '/api/team', who.owner)).json().seats.members, before - 1);
    expectError(await api(t, 'GET', '/connect/userinfo', token), 401);
    expectError(await remove(m.id, who.admin), 404);
  });

  it('refuses to remove oneself (409 self), an owner by an admin (403), the last owner (409)', async () => {
    expectError(await remove(who.ids['alan@acme.test']!, who.admin), 409, 'self');
    expectError(await remove(who.ids['ada@acme.test']!, who.admin), 403, 'notOwner');
    expectError(await remove(who.ids['ada@acme.test']!, who.owner), 409, 'self');
    const olga = await member(['OWNER'], 'Olga Owner');
    await patch(who.ids['ada@acme.test']!, { permissions: ['ADMIN'] }, await olga.token());
    expectError(await remove(olga.id, (await tokenFor(t.app, 'ada@acme.test')).accessToken), 403, 'notOwner');
    await patch(who.ids['ada@acme.test']!, { permissions: ['OWNER'] }, await olga.token());
    expectError(await remove(olga.id, await olga.token()), 409, 'self');
    who = await callers(t);
    assert.equal((await remove(olga.id)).statusCode, 204);
  });
});
