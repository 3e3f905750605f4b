import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { addUser, api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, tokenFor, type TestApp } from '../support/test-server';

let t: TestApp;
let who: Callers;
before(async () => {
  t = await createTestApp();
  who = await callers(t);
});
after(() => t.close());

interface GroupJson {
  id: string;
  name: string;
  members: Array<{ id: string; name: string; email: string }>;
}

let counter = 0;
async function group(name = `Group ${++counter}`, token = who.owner): Promise<GroupJson> {
  const response = await api(t, 'POST', '/api/team/groups', token, { name });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as GroupJson;
}

describe('who may manage groups', () => {
  it('refuses without a token (401) and a member (403 notAdmin) on every call', async () => {
    const g = await group();
    const bob = who.ids['bob@acme.test']!;
    for (const [method, url, body] of [
      ['GET', '/api/team/groups', undefined],
      ['POST', '/api/team/groups', { name: 'Nope' }],
      ['PATCH', `/api/team/groups/${g.id}`, { name: 'Nope' }],
      ['DELETE', `/api/team/groups/${g.id}`, undefined],
      ['PUT', `/api/team/groups/${g.id}/members/${bob}`, undefined],
      ['DELETE', `/api/team/groups/${g.id}/members/${bob}`, undefined],
    ] as const) {
      expectError(await api(t, method, url, undefined, body), 401);
      expectError(await api(t, method, url, who.member, body), 403, 'notAdmin');
    }
  });

  it("answers another team's admin 404 for acme's groups and members", async () => {
    const g = await group();
    const bob = who.ids['bob@acme.test']!;
    const carol = who.ids['carol@globex.test']!;
    expectError(
      await api(t, 'PATCH', `/api/team/groups/${g.id}`, who.otherAdmin, { name: 'Taken over' }),
      404,
    );
    expectError(await api(t, 'DELETE', `/api/team/groups/${g.id}`, who.otherAdmin), 404);
    expectError(await api(t, 'PUT', `/api/team/groups/${g.id}/members/${bob}`, who.otherAdmin), 404);
    expectError(await api(t, 'DELETE', `/api/team/groups/${g.id}/members/${bob}`, who.otherAdmin), 404);
    // An acme group cannot take a globex member either.
    expectError(await api(t, 'PUT', `/api/team/groups/${g.id}/members/${carol}`, who.owner), 404);
    const theirs = await api(t, 'GET', '/api/team/groups', who.otherAdmin);
    assert.ok(!theirs.json().groups.some((x: GroupJson) => x.id === g.id));
  });
});

describe('groups', () => {
  it('creates, renames and deletes; names are unique in the team regardless of case and accents', async () => {
    const g = await group('  Field Crew  ', who.admin);
    assert.equal(g.name, 'Field Crew');
    expectError(
      await api(t, 'POST', '/api/team/groups', who.owner, { name: 'FIELD crew' }),
      409,
      'nameTaken',
      'name',
    );
    const other = await group('Office');
    expectError(
      await api(t, 'PATCH', `/api/team/groups/${other.id}`, who.owner, { name: 'field crew' }),
      409,
      'nameTaken',
    );
    const renamed = await api(t, 'PATCH', `/api/team/groups/${g.id}`, who.owner, { name: 'Field Team' });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json().name, 'Field Team');
    for (const name of ['', '   ', 'x'.repeat(51), 'a\u0000b'.replace('\u0000', '\u0007')])
      expectError(await api(t, 'POST', '/api/team/groups', who.owner, { name }), 400, 'invalidName', 'name');
    expectError(await api(t, 'POST', '/api/team/groups', who.owner, {}), 400);
    const deleted = await api(t, 'DELETE', `/api/team/groups/${g.id}`, who.owner);
    assert.equal(deleted.statusCode, 204);
    expectError(await api(t, 'DELETE', `/api/team/groups/${g.id}`, who.owner), 404);
    expectError(await api(t, 'PATCH', `/api/team/groups/${g.id}`, who.owner, { name: 'Back' }), 404);
  });

  it('adds and removes members; the list of groups and of members show them', async () => {
    const g = await group('Approvers');
    const ada = who.ids['ada@acme.test']!;
    const added = await api(t, 'PUT', `/api/team/groups/${g.id}/members/${ada}`, who.admin);
    assert.equal(added.statusCode, 200, added.body);
    assert.deepEqual(added.json().members, [{ id: ada, name: 'Ada Lovelace', email: 'ada@acme.test' }]);
    assert.equal(
      (await api(t, 'PUT', `/api/team/groups/${g.id}/members/${ada}`, who.admin)).json().members.length,
      1,
    );
    const listed = (await api(t, 'GET', '/api/team/groups', who.owner)).json().groups as GroupJson[];
    assert.deepEqual(
      listed.find((x) => x.id === g.id)!.members.map((m) => m.id),
      [ada],
    );
    const member = (await api(t, 'GET', '/api/team/members?q=ada', who.owner)).json().members[0];
    assert.deepEqual(member.groups, [{ id: g.id, name: 'Approvers' }]);
    expectError(await api(t, 'PUT', `/api/team/groups/${g.id}/members/no-such-user`, who.admin), 404);
    expectError(await api(t, 'PUT', `/api/team/groups/no-such-group/members/${ada}`, who.admin), 404);
    const removed = await api(t, 'DELETE', `/api/team/groups/${g.id}/members/${ada}`, who.admin);
    assert.equal(removed.statusCode, 200);
    assert.deepEqual(removed.json().members, []);
  });
});

describe('the groups claim', () => {
  it('is in userinfo and in the id token, an empty array without groups, and follows changes at once', async () => {
    const email = 'gil@acme.test';
    const id = await addUser(t, { email, name: 'Gil Grouped', permissions: ['SPOKE'] });
    const first = await tokenFor(t.app, email);
    const userinfo = async () => (await api(t, 'GET', '/connect/userinfo', first.accessToken)).json().groups;
    assert.deepEqual(await userinfo(), []);
    const b = await group('Beta');
    const a = await group('Alpha');
    await api(t, 'PUT', `/api/team/groups/${b.id}/members/${id}`, who.owner);
    await api(t, 'PUT', `/api/team/groups/${a.id}/members/${id}`, who.owner);
    assert.deepEqual(await userinfo(), ['Alpha', 'Beta']);
    await api(t, 'PATCH', `/api/team/groups/${a.id}`, who.owner, { name: 'Aleph' });
    assert.deepEqual(await userinfo(), ['Aleph', 'Beta']);
    const exchange = await t.app.inject({
      method: 'POST',
      url: '/connect/token',
      headers: {
        cookie: first.cookie,
        'x-xsrf-token': first.xsrf,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({
        grant_type: 'device_code',
        client_id: 'acct-portal',
        sessionId: first.publicId,
      }).toString(),
    });
    assert.deepEqual(decodeJwt(exchange.json().id_token as string).groups, ['Aleph', 'Beta']);
    await api(t, 'DELETE', `/api/team/groups/${b.id}`, who.owner);
    assert.deepEqual(await userinfo(), ['Aleph']);
  });
});
