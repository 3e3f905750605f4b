import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addUser, api, callers, expectError, type Callers } from '../support/team-admin';
import { login } from '../support/two-step';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
let who: Callers;
before(async () => {
  t = await createTestApp({ LOGIN_ADDRESS_LIMIT: '10000' });
  who = await callers(t);
});
after(() => t.close());

interface MemberJson {
  id: string;
  email: string;
  locked: null | { reason: string; until: string | null };
  twoStep: boolean;
}
interface ListJson {
  members: MemberJson[];
  callerIsOwner: boolean;
  activeOwners: number;
}
interface AuditJson {
  events: Array<{ id: string; action: string; target: string; detail: Record<string, unknown> }>;
  next: string | null;
}

const list = async (query = '', token = who.owner): Promise<ListJson> => {
  const response = await api(t, 'GET', `/api/team/members${query}`, token);
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as ListJson;
};
const memberOf = async (email: string) => (await list(`?q=${encodeURIComponent(email)}`)).members[0]!;
const audit = async (query = '', token = who.owner): Promise<AuditJson> => {
  const response = await api(t, 'GET', `/api/team/audit${query}`, token);
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as AuditJson;
};
const signIn = (email: string, password: string) => login(t, email, password);

describe('a locked member, and unlocking them', () => {
  it('shows a lock by failed sign-ins with its end; an admin lifts it, audited, and sign-in works', async () => {
    const email = 'tina@acme.test';
    await addUser(t, { email, name: 'Tina Trial', permissions: ['SPOKE'] });
    for (let i = 0; i < 5; i++) await signIn(email, 'not the password');
    assert.equal((await signIn(email, 'not the password')).statusCode, 403, 'locked');
    const locked = await memberOf(email);
    assert.equal(locked.locked?.reason, 'failedSignIns');
    assert.ok(Date.parse(locked.locked.until!) > t.clock.now(), locked.locked.until ?? '');

    const unlocked = await api(t, 'POST', `/api/team/members/${locked.id}/unlock`, who.admin);
    assert.equal(unlocked.statusCode, 200, unlocked.body);
    assert.equal((unlocked.json() as MemberJson).locked, null);
    assert.equal((await memberOf(email)).locked, null);
    // Not locked any more: a wrong password is a 401 again, not the locked 403.
    assert.equal((await signIn(email, 'not the password')).statusCode, 401);
    // The wrong password after it is the log's latest event (a member's security event); the unlock is
    // the latest admin action on members.
    const [failed] = (await audit('?limit=1')).events;
    assert.deepEqual(
      { action: failed!.action, target: failed!.target },
      { action: 'user.signInFailed', target: email },
    );
    const [latest] = (await audit('?kind=member&limit=1')).events;
    assert.deepEqual(
      { action: latest!.action, target: latest!.target, name: latest!.detail.name },
      { action: 'member.unlocked', target: email, name: 'Tina Trial' },
    );
  });

  it("shows an administrator's lock (no end) and lifts it", async () => {
    const lee = await memberOf('locked@acme.test');
    assert.deepEqual(lee.locked, { reason: 'admin', until: null });
    const response = await api(t, 'POST', `/api/team/members/${lee.id}/unlock`, who.owner);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal((await memberOf('locked@acme.test')).locked, null);
  });

  it('is refused without a token, to a member, across teams and to an admin acting on an owner', async () => {
    const bob = who.ids['bob@acme.test']!;
    const url = `/api/team/members/${bob}/unlock`;
    expectError(await api(t, 'POST', url), 401);
    expectError(await api(t, 'POST', url, who.member), 403, 'notAdmin');
    expectError(await api(t, 'POST', url, who.otherAdmin), 404);
    expectError(
      await api(t, 'POST', `/api/team/members/${who.ids['ada@acme.test']}/unlock`, who.admin),
      403,
      'notOwner',
    );
  });
});

describe('what the users screen needs to offer only allowed changes', () => {
  it('says whether the caller is an owner and how many active owners there are', async () => {
    const byOwner = await list();
    assert.deepEqual([byOwner.callerIsOwner, byOwner.activeOwners], [true, 1]);
    const byAdmin = await list('', who.admin);
    assert.deepEqual([byAdmin.callerIsOwner, byAdmin.activeOwners], [false, 1]);
  });

  it('says who has two-step sign-in, and the team how many do not', async () => {
    const ada = await memberOf('ada@acme.test');
    assert.equal(ada.twoStep, false);
    const before = (await api(t, 'GET', '/api/team', who.owner)).json() as { membersWithoutTwoStep: number };
    await t.db.kysely
      .insertInto('totp_secrets')
      .values({ user_id: ada.id, sealed_secret: 'x', created_at: t.clock.now(), confirmed_at: t.clock.now() })
      .execute();
    assert.equal((await memberOf('ada@acme.test')).twoStep, true);
    const now = (await api(t, 'GET', '/api/team', who.owner)).json() as { membersWithoutTwoStep: number };
    assert.equal(now.membersWithoutTwoStep, before.membersWithoutTwoStep - 1);
    await t.db.kysely.deleteFrom('totp_secrets').where('user_id', '=', ada.id).execute();
  });
});

describe('the audit trail: who, in words, by page and filter', () => {
  it('records the member’s name with a group membership and a removal', async () => {
    const id = await addUser(t, { email: 'gus@acme.test', name: 'Gus Group', permissions: ['SPOKE'] });
    const group = (
      await api(t, 'POST', '/api/team/groups', who.owner, { name: 'Platform Engineering' })
    ).json() as {
      id: string;
    };
    assert.equal(
      (await api(t, 'PUT', `/api/team/groups/${group.id}/members/${id}`, who.owner)).statusCode,
      200,
    );
    const [added] = (await audit('?limit=1')).events;
    assert.deepEqual(
      { action: added!.action, target: added!.target, detail: added!.detail },
      {
        action: 'group.memberAdded',
        target: 'Platform Engineering',
        detail: { member: 'gus@acme.test', name: 'Gus Group' },
      },
    );
    assert.equal((await api(t, 'DELETE', `/api/team/members/${id}`, who.owner)).statusCode, 204);
    const [removed] = (await audit('?limit=1')).events;
    assert.deepEqual([removed!.action, removed!.detail.name], ['member.removed', 'Gus Group']);
  });

  it('pages beyond the latest with `before`, each event once, and filters by kind and actor', async () => {
    for (let i = 0; i < 4; i++) await api(t, 'POST', '/api/team/groups', who.admin, { name: `Paged ${i}` });
    const all = await audit('?limit=100');
    const seen: string[] = [];
    let page = await audit('?limit=3');
    seen.push(...page.events.map((e) => e.id));
    while (page.next) {
      page = await audit(`?limit=3&before=${page.next}`);
      seen.push(...page.events.map((e) => e.id));
    }
    assert.deepEqual(
      seen,
      all.events.map((e) => e.id),
    );

    const groups = await audit('?limit=100&kind=group');
    assert.ok(groups.events.length >= 4);
    assert.ok(groups.events.every((e) => e.action.startsWith('group.')));
    const alan = who.ids['alan@acme.test']!;
    const byAlan = await audit(`?limit=100&actor=${alan}`);
    assert.ok(byAlan.events.length >= 4);
    assert.ok(byAlan.events.every((e) => (e as unknown as { actor: { id: string } }).actor.id === alan));
    expectError(await api(t, 'GET', '/api/team/audit?kind=secret', who.owner), 400, 'invalidKind');
    expectError(await api(t, 'GET', '/api/team/audit?before=x', who.owner), 400, 'invalidCursor');
    // Another team's admin sees none of acme's events through the filters.
    const theirs = (await api(t, 'GET', `/api/team/audit?actor=${alan}`, who.otherAdmin)).json() as AuditJson;
    assert.deepEqual(theirs.events, []);
  });
});
