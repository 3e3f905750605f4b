/**
 * SCIM PATCH and filters of the server (scimmy, lib/scim.ts, db/scim.ts) against two independent
 * implementations: `scim-patch` applies the same PatchOp messages, `scim2-parse-filter` evaluates the
 * same filters over the same resources. PATCH is compared on what it does to the member or group (the
 * fields the server keeps), filters on the resources they select. Where RFC 7643 and a reference part
 * ways, the case says so and checks the RFC's answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { scimPatch, type ScimPatchOperation, type ScimResource } from 'scim-patch';
import { filter as referenceFilter, parse as referenceParse } from 'scim2-parse-filter';
import { applyPatch, groupFields, ScimProblem, userFields } from '../../demo/server/lib/scim';
import type { DirectoryWithToken } from '../../src/contract/schemas/directories';
import type { ScimGroup, ScimUser } from '../../src/contract/schemas/scim';
import { api, callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const meta = (resourceType: 'User' | 'Group') => ({
  resourceType,
  created: '2026-01-01T00:00:00.000Z',
  lastModified: '2026-01-01T00:00:00.000Z',
  location: `https://portal.example.test/scim/v2/${resourceType}s/x`,
});

const USER: ScimUser = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  id: 'u-1',
  externalId: 'ext-1',
  userName: 'ada@acme.test',
  name: { formatted: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace' },
  displayName: 'Ada Lovelace',
  emails: [{ value: 'ada@acme.test', type: 'work', primary: true }],
  active: true,
  meta: meta('User') as ScimUser['meta'],
};

const GROUP: ScimGroup = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
  id: 'g-1',
  externalId: 'gext-1',
  displayName: 'Platform',
  members: ['a', 'b', 'c'].map((id) => ({
    value: id,
    display: id.toUpperCase(),
    type: 'User' as const,
    $ref: `https://portal.example.test/scim/v2/Users/${id}`,
  })),
  meta: meta('Group') as ScimGroup['meta'],
};

type Operation = { op: string; path?: string; value?: unknown };

/** PATCH messages as directories send them; each applied to USER or GROUP. */
const PATCHES: Array<{ name: string; on: 'User' | 'Group'; operations: Operation[] }> = [
  {
    name: 'deactivate without a path',
    on: 'User',
    operations: [{ op: 'replace', value: { active: false } }],
  },
  { name: 'reactivate', on: 'User', operations: [{ op: 'replace', path: 'active', value: true }] },
  { name: 'Replace, capitalised', on: 'User', operations: [{ op: 'Replace', path: 'active', value: false }] },
  {
    name: 'a new address',
    on: 'User',
    operations: [{ op: 'replace', path: 'userName', value: 'ada.l@acme.test' }],
  },
  {
    name: 'a family name',
    on: 'User',
    operations: [{ op: 'replace', path: 'name.familyName', value: 'Byron' }],
  },
  {
    name: 'a given name, added',
    on: 'User',
    operations: [{ op: 'add', path: 'name.givenName', value: 'Augusta' }],
  },
  {
    name: 'both name parts as an object',
    on: 'User',
    operations: [{ op: 'replace', path: 'name', value: { givenName: 'Augusta', familyName: 'King' } }],
  },
  {
    name: 'several attributes without a path',
    on: 'User',
    operations: [
      { op: 'replace', value: { userName: 'countess@acme.test', externalId: 'ext-9', active: false } },
    ],
  },
  {
    name: 'an external id, added',
    on: 'User',
    operations: [{ op: 'add', path: 'externalId', value: 'ext-2' }],
  },
  { name: 'the external id, removed', on: 'User', operations: [{ op: 'remove', path: 'externalId' }] },
  {
    name: 'the work address by a value filter',
    on: 'User',
    operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'other@acme.test' }],
  },
  {
    name: 'Entra ID’s multi-valued update',
    on: 'User',
    operations: [
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
      { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
    ],
  },
  {
    name: 'one member added',
    on: 'Group',
    operations: [{ op: 'add', path: 'members', value: [{ value: 'd' }] }],
  },
  {
    name: 'a member who is in already, added',
    on: 'Group',
    operations: [{ op: 'add', path: 'members', value: [{ value: 'a', display: 'A' }] }],
  },
  {
    name: 'one member removed by a value filter',
    on: 'Group',
    operations: [{ op: 'remove', path: 'members[value eq "b"]' }],
  },
  { name: 'every member removed', on: 'Group', operations: [{ op: 'remove', path: 'members' }] },
  {
    name: 'the members replaced',
    on: 'Group',
    operations: [{ op: 'replace', path: 'members', value: [{ value: 'x' }, { value: 'y' }] }],
  },
  {
    name: 'Okta’s membership change',
    on: 'Group',
    operations: [
      { op: 'remove', path: 'members[value eq "a"]' },
      { op: 'add', path: 'members', value: [{ value: 'e', display: 'e@acme.test' }] },
    ],
  },
  {
    name: 'renamed',
    on: 'Group',
    operations: [{ op: 'replace', path: 'displayName', value: 'Platform Ops' }],
  },
  {
    name: 'renamed without a path',
    on: 'Group',
    operations: [{ op: 'replace', value: { displayName: 'SRE', externalId: 'gext-2' } }],
  },
  {
    name: 'Entra ID’s Add, capitalised',
    on: 'Group',
    operations: [{ op: 'Add', path: 'members', value: [{ value: 'f' }] }],
  },
];

/** Messages both must refuse. */
const REFUSED: Array<{ name: string; on: 'User' | 'Group'; operations: Operation[] }> = [
  { name: 'an unknown operation', on: 'User', operations: [{ op: 'move', path: 'userName', value: 'x' }] },
  { name: 'remove without a path', on: 'Group', operations: [{ op: 'remove' }] },
  {
    name: 'a filter that does not parse',
    on: 'Group',
    operations: [{ op: 'remove', path: 'members[value eq]' }],
  },
];

const resourceOf = (on: 'User' | 'Group'): ScimUser | ScimGroup =>
  structuredClone(on === 'User' ? USER : GROUP);

/** What a resource means to the server: the member's or group's fields it keeps. */
const effect = (on: 'User' | 'Group', resource: Record<string, unknown>) =>
  on === 'User'
    ? userFields(resource)
    : (({ memberIds, ...rest }) => ({ ...rest, memberIds: [...memberIds].sort() }))(groupFields(resource));

function reference(on: 'User' | 'Group', operations: Operation[]): Record<string, unknown> {
  return scimPatch(resourceOf(on) as unknown as ScimResource, operations as ScimPatchOperation[], {
    mutateDocument: false,
  }) as unknown as Record<string, unknown>;
}

describe('PATCH as scim-patch applies it', () => {
  for (const { name, on, operations } of PATCHES) {
    it(`${on}: ${name}`, async () => {
      const ours = await applyPatch(on, resourceOf(on), { schemas: [PATCH_OP], Operations: operations });
      assert.deepEqual(effect(on, ours), effect(on, reference(on, operations)));
    });
  }

  it('a complex attribute replaced keeps the sub-attributes it does not name (RFC 7644 §3.5.2.3)', async () => {
    // scimmy alone would replace the whole name (the given name gone); the server splits such an
    // operation into one per sub-attribute named, as scim-patch applies it.
    const operations = [{ op: 'replace', path: 'name', value: { familyName: 'King' } }];
    const ours = userFields(
      await applyPatch('User', resourceOf('User'), { schemas: [PATCH_OP], Operations: operations }),
    );
    assert.equal(ours.name, 'Ada King');
    assert.equal(userFields(reference('User', operations)).name, 'Ada King');
  });

  for (const { name, on, operations } of REFUSED) {
    it(`${on}: refuses ${name}, as the reference does`, async () => {
      assert.throws(() => reference(on, operations));
      await assert.rejects(
        applyPatch(on, resourceOf(on), { schemas: [PATCH_OP], Operations: operations }),
        (error: unknown) => error instanceof ScimProblem && error.status === 400,
      );
    });
  }
});

describe('filters as scim2-parse-filter selects', () => {
  let t: TestApp;
  let token: string;
  const get = (path: string): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'GET',
      url: `/scim/v2${path}`,
      headers: { authorization: `Bearer ${token}` },
    });

  before(async () => {
    t = await createTestApp();
    const who = await callers(t);
    await t.db.kysely.updateTable('teams').set({ seat_limit: 500 }).execute();
    const made = await api(t, 'POST', '/api/team/directories', who.owner, {
      name: 'Differential',
      signIn: 'sso',
    });
    token = (made.json() as DirectoryWithToken).token;
    const people = [
      ['grace@acme.test', 'Grace', 'Hopper', 'emp-100'],
      ['alan@turing.test', 'Alan', 'Turing', 'emp-101'],
      ['grace.h@acme.test', 'Grace', 'Brewster', 'emp-102'],
      ['edsger@acme.test', 'Edsger', 'Dijkstra', null],
    ] as const;
    for (const [userName, givenName, familyName, externalId] of people) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/scim/v2/Users',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
        payload: JSON.stringify({
          userName,
          name: { givenName, familyName },
          ...(externalId ? { externalId } : {}),
        }),
      });
      assert.equal(response.statusCode, 201, response.body);
    }
    for (const [displayName, externalId] of [
      ['Engineering', 'grp-1'],
      ['Research', 'grp-2'],
      ['Engineering Leads', null],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/scim/v2/Groups',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
        payload: JSON.stringify({ displayName, ...(externalId ? { externalId } : {}) }),
      });
      assert.equal(response.statusCode, 201, response.body);
    }
  });
  after(() => t.close());

  const USER_FILTERS = [
    'userName eq "grace@acme.test"',
    'userName eq "nobody@acme.test"',
    'externalId eq "emp-101"',
    'externalId eq "emp-101" and userName eq "alan@turing.test"',
    'externalId eq "emp-101" and userName eq "grace@acme.test"',
    'emails[type eq "work"].value eq "grace.h@acme.test"',
    'emails[type eq "home"].value eq "grace.h@acme.test"',
    'emails.value eq "edsger@acme.test"',
    'displayName eq "Alan Turing"',
    'displayName eq "Grace Hopper" and externalId eq "emp-100"',
    'userName eq "alan@turing.test" and emails[type eq "work"].value eq "alan@turing.test"',
  ];
  const GROUP_FILTERS = [
    'displayName eq "Engineering"',
    'displayName eq "Engineering Leads"',
    'displayName eq "Marketing"',
    'externalId eq "grp-2"',
    'externalId eq "grp-2" and displayName eq "Research"',
    'externalId eq "grp-2" and displayName eq "Engineering"',
  ];

  async function compare(resource: 'Users' | 'Groups', filter: string) {
    const all = (await get(`/${resource}?count=200`)).json() as { Resources: Array<{ id: string }> };
    const expected = all.Resources.filter(referenceFilter(referenceParse(filter)))
      .map((r) => r.id)
      .sort();
    const response = await get(`/${resource}?count=200&filter=${encodeURIComponent(filter)}`);
    assert.equal(response.statusCode, 200, response.body);
    const ours = response.json() as { totalResults: number; Resources: Array<{ id: string }> };
    assert.deepEqual(ours.Resources.map((r) => r.id).sort(), expected, filter);
    assert.equal(ours.totalResults, expected.length, filter);
  }

  for (const filter of USER_FILTERS) it(`Users: ${filter}`, () => compare('Users', filter));
  for (const filter of GROUP_FILTERS) it(`Groups: ${filter}`, () => compare('Groups', filter));

  it('userName is not case-exact (RFC 7643 §4.1.1), where the reference compares exactly', async () => {
    const filter = 'userName eq "GRACE@ACME.TEST"';
    const all = (await get('/Users?count=200')).json() as {
      Resources: Array<{ id: string; userName: string }>;
    };
    assert.equal(all.Resources.filter(referenceFilter(referenceParse(filter))).length, 0);
    const ours = (await get(`/Users?filter=${encodeURIComponent(filter)}`)).json() as {
      Resources: Array<{ userName: string }>;
    };
    assert.deepEqual(
      ours.Resources.map((r) => r.userName),
      ['grace@acme.test'],
    );
  });

  it('refuses what the reference cannot parse (400 invalidFilter)', async () => {
    for (const filter of ['userName eq', 'userName eq "x" and', '(userName eq "x"', 'eq "x"']) {
      assert.throws(() => referenceParse(filter), filter);
      const response = await get(`/Users?filter=${encodeURIComponent(filter)}`);
      assert.equal(response.statusCode, 400, `${filter}: ${response.body}`);
      assert.equal((response.json() as { scimType?: string }).scimType, 'invalidFilter', filter);
    }
  });
});
