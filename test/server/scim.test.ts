/**
 * SCIM 2.0 for a team's directories (routes/scim.ts, routes/directories.ts): who may manage directory
 * tokens and who may call SCIM; the provisioning sequences of Okta and Microsoft Entra ID replayed from
 * their documentation (test/fixtures/scim/), each answer checked; paging, filters, errors; the last
 * seat raced for; deactivation ending the member's sessions; the invitation mail of a directory whose
 * members set a password.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { sha256 } from '../../demo/server/lib/crypto';
import type { DirectoryList, DirectoryWithToken } from '../../src/contract/schemas/directories';
import { TestSmtp } from '../support/smtp';
import { addUser, api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, sessionFor, tokenFor, type TestApp } from '../support/test-server';

const PUBLIC_URL = 'https://portal.example.test';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'scim');

let t: TestApp;
let smtp: TestSmtp;
let who: Callers;
before(async () => {
  smtp = await TestSmtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL });
  who = await callers(t);
});
after(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.db.kysely.updateTable('teams').set({ seat_limit: 500 }).execute();
});

let counter = 0;
async function addDirectory(
  token = who.owner,
  signIn: 'sso' | 'invitation' = 'sso',
): Promise<DirectoryWithToken> {
  const response = await api(t, 'POST', '/api/team/directories', token, {
    name: `Directory ${++counter}`,
    signIn,
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as DirectoryWithToken;
}

/** A request body sent as it is written, not serialised again. */
class RawBody {
  constructor(readonly text: string) {}
}

/** A SCIM call as a provisioning client makes it: the directory's token, SCIM's media type. */
function scim(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  token: string | undefined,
  body?: unknown,
  contentType = 'application/scim+json',
): Promise<LightMyRequestResponse> {
  // The documents write filters unencoded; on the wire the client encodes them.
  const url = `/scim/v2${path.replace(/[ "[\]]/g, (c) => encodeURIComponent(c))}`;
  return t.app.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': contentType } : {}),
    },
    payload: body instanceof RawBody ? body.text : body !== undefined ? JSON.stringify(body) : undefined,
  });
}

/** A SCIM error answer: its status, the body's status string and scimType. */
function expectScimError(response: LightMyRequestResponse, status: number, scimType?: string) {
  assert.equal(response.statusCode, status, response.body);
  assert.match(String(response.headers['content-type']), /^application\/scim\+json/);
  const body = response.json() as { schemas: string[]; status: string; scimType?: string; detail?: string };
  assert.deepEqual(body.schemas, [ERROR], response.body);
  assert.equal(body.status, String(status));
  if (scimType !== undefined) assert.equal(body.scimType, scimType, response.body);
  assert.equal(typeof body.detail, 'string');
}

/** Whether `actual` holds everything `expected` says (arrays element by element, of the same length). */
function contains(actual: unknown, expected: unknown, at = '$'): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      return [`${at}: expected ${expected.length} items, got ${JSON.stringify(actual)}`];
    return expected.flatMap((item, i) => contains(actual[i], item, `${at}[${i}]`));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null) return [`${at}: expected an object`];
    return Object.entries(expected).flatMap(([key, value]) =>
      contains((actual as Record<string, unknown>)[key], value, `${at}.${key}`),
    );
  }
  return Object.is(actual, expected)
    ? []
    : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

interface Step {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** The body exactly as the provider's documentation prints it: sent as these bytes. */
  raw?: string;
  status: number;
  expect?: unknown;
  absent?: string[];
  as?: string;
  aliases?: string[];
}

/** Replay a documented sequence: each example id stands for the id this server answered. */
async function replay(file: string, token: string) {
  const { steps } = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { steps: Step[] };
  const ids = new Map<string, string>();
  const swap = (text: string) => {
    for (const [example, id] of ids) text = text.split(example).join(id);
    return text;
  };
  for (const step of steps) {
    const body =
      step.raw !== undefined
        ? new RawBody(swap(step.raw))
        : step.body === undefined
          ? undefined
          : JSON.parse(swap(JSON.stringify(step.body)));
    const response = await scim(step.method, swap(step.path), token, body);
    assert.equal(response.statusCode, step.status, `${file} ${step.name}: ${response.body}`);
    if (step.status === 204) {
      assert.equal(response.body, '', step.name);
      continue;
    }
    assert.match(String(response.headers['content-type']), /^application\/scim\+json/, step.name);
    const answer = response.json() as Record<string, unknown>;
    if (step.as) {
      assert.equal(typeof answer.id, 'string', step.name);
      for (const example of [step.as, ...(step.aliases ?? [])]) ids.set(example, answer.id as string);
      assert.equal(response.headers.location, `${PUBLIC_URL}/scim/v2${step.path}/${answer.id as string}`);
    }
    if (step.expect !== undefined) {
      const expected = JSON.parse(swap(JSON.stringify(step.expect)));
      assert.deepEqual(contains(answer, expected), [], `${file} ${step.name}: ${response.body}`);
    }
    for (const key of step.absent ?? []) assert.ok(!(key in answer), `${step.name}: ${key} is present`);
  }
  return ids;
}

describe('who may manage directories', () => {
  it('refuses without a token (401) and a member (403 notAdmin) on every call', async () => {
    const { directory } = await addDirectory();
    for (const [method, url, body] of [
      ['GET', '/api/team/directories', undefined],
      ['POST', '/api/team/directories', { name: 'Nope', signIn: 'sso' }],
      ['POST', `/api/team/directories/${directory.id}/token`, undefined],
      ['DELETE', `/api/team/directories/${directory.id}`, undefined],
    ] as const) {
      expectError(await api(t, method, url, undefined, body), 401);
      expectError(await api(t, method, url, who.member, body), 403, 'notAdmin');
    }
  });

  it('answers another team’s admin 404 for acme’s directories, and lists only their own', async () => {
    const { directory, token } = await addDirectory();
    const url = `/api/team/directories/${directory.id}`;
    expectError(await api(t, 'POST', `${url}/token`, who.otherAdmin), 404, 'notFound');
    expectError(await api(t, 'DELETE', url, who.otherAdmin), 404, 'notFound');
    const theirs = (await api(t, 'GET', '/api/team/directories', who.otherAdmin)).json() as DirectoryList;
    assert.ok(!theirs.directories.some((d) => d.id === directory.id));
    // Untouched: the token still works.
    assert.equal((await scim('GET', '/Users?count=1', token)).statusCode, 200);
  });

  it('lets an admin who is not an owner add, rotate and revoke', async () => {
    const { directory } = await addDirectory(who.admin);
    const url = `/api/team/directories/${directory.id}`;
    assert.equal((await api(t, 'POST', `${url}/token`, who.admin)).statusCode, 200);
    assert.equal((await api(t, 'DELETE', url, who.admin)).statusCode, 204);
  });

  it('answers the token once, stores its SHA-256, audits every change', async () => {
    const made = await addDirectory(who.owner, 'invitation');
    assert.match(made.token, /^acct_scim_[A-Za-z0-9_-]{43}$/);
    assert.equal(made.scimUrl, `${PUBLIC_URL}/scim/v2`);
    assert.equal(made.directory.signIn, 'invitation');
    const list = await api(t, 'GET', '/api/team/directories', who.owner);
    assert.ok(!list.body.includes(made.token), 'the token is not listed');
    const stored = await t.db.kysely
      .selectFrom('directories')
      .select('token_hash')
      .where('id', '=', made.directory.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.token_hash, sha256(made.token));
    const rotated = (
      await api(t, 'POST', `/api/team/directories/${made.directory.id}/token`, who.owner)
    ).json() as DirectoryWithToken;
    assert.notEqual(rotated.token, made.token);
    assert.ok(rotated.directory.rotatedAt);
    assert.equal(
      (await api(t, 'DELETE', `/api/team/directories/${made.directory.id}`, who.owner)).statusCode,
      204,
    );
    const actions = await t.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'target'])
      .where('target', '=', made.directory.name)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      actions.map((a) => a.action),
      ['directory.added', 'directory.tokenRotated', 'directory.revoked'],
    );
    assert.ok(!JSON.stringify(actions).includes(made.token));
  });

  it('refuses a bad name at its field', async () => {
    const response = await api(t, 'POST', '/api/team/directories', who.owner, { name: '  ', signIn: 'sso' });
    expectError(response, 400, 'invalidName', 'name');
  });
});

describe('who may call SCIM', () => {
  it('refuses no token, access tokens of a member and an admin, a revoked and a rotated-away token (401)', async () => {
    const made = await addDirectory();
    const revoked = await addDirectory();
    await api(t, 'DELETE', `/api/team/directories/${revoked.directory.id}`, who.owner);
    const rotated = await addDirectory();
    const fresh = (
      await api(t, 'POST', `/api/team/directories/${rotated.directory.id}/token`, who.owner)
    ).json() as DirectoryWithToken;
    for (const token of [
      undefined,
      who.member,
      who.owner,
      revoked.token,
      rotated.token,
      'acct_scim_x',
      `${made.token}x`,
    ]) {
      for (const path of ['/Users', '/Groups', '/ServiceProviderConfig', '/Schemas', '/ResourceTypes']) {
        const response = await scim('GET', path, token);
        expectScimError(response, 401);
        assert.equal(response.headers['www-authenticate'], 'Bearer error="invalid_token"');
      }
      expectScimError(await scim('POST', '/Users', token, { userName: 'x@acme.test' }), 401);
    }
    assert.equal((await scim('GET', '/Users', fresh.token)).statusCode, 200);
    assert.equal((await scim('GET', '/Users', made.token)).statusCode, 200);
  });

  it('keeps a directory to its own team: another team’s token sees and changes nothing of acme', async () => {
    const globex = await addDirectory(who.otherAdmin);
    const bob = who.ids['bob@acme.test']!;
    expectScimError(await scim('GET', `/Users/${bob}`, globex.token), 404);
    const patch = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    };
    expectScimError(await scim('PATCH', `/Users/${bob}`, globex.token, patch), 404);
    expectScimError(await scim('DELETE', `/Users/${bob}`, globex.token), 404);
    const list = (await scim('GET', '/Users?filter=userName eq "bob@acme.test"', globex.token)).json() as {
      totalResults: number;
    };
    assert.equal(list.totalResults, 0);
    const everyone = (await scim('GET', '/Users?count=200', globex.token)).json() as {
      Resources: Array<{ userName: string }>;
    };
    assert.ok(everyone.Resources.length > 0);
    assert.ok(
      everyone.Resources.every((u) => u.userName.endsWith('@globex.test')),
      JSON.stringify(everyone),
    );
  });

  it('is no access token anywhere else, and writes down when it was used', async () => {
    const made = await addDirectory();
    for (const url of ['/api/team/members', '/connect/userinfo', '/api/team/directories'])
      expectError(await api(t, 'GET', url, made.token), 401);
    await scim('GET', '/Users?count=1', made.token);
    const list = (await api(t, 'GET', '/api/team/directories', who.owner)).json() as DirectoryList;
    assert.ok(list.directories.find((d) => d.id === made.directory.id)?.lastUsedAt);
  });

  it('answers 403 while the team is disabled', async () => {
    const made = await addDirectory();
    await t.db.kysely.updateTable('teams').set({ disabled: 1 }).where('name', '=', 'acme').execute();
    try {
      expectScimError(await scim('GET', '/Users', made.token), 403);
    } finally {
      await t.db.kysely.updateTable('teams').set({ disabled: 0 }).where('name', '=', 'acme').execute();
    }
  });
});

describe('the documented provisioning sequences', () => {
  it('answers Okta’s requests as Okta expects', async () => {
    const { token } = await addDirectory();
    await replay('okta.json', token);
  });

  it('answers Microsoft Entra ID’s requests as Entra ID expects', async () => {
    const { token } = await addDirectory();
    await replay('entra.json', token);
  });
});

describe('discovery', () => {
  it('describes the service, its schemas and resource types (scimmy’s definitions)', async () => {
    const { token } = await addDirectory();
    const config = await scim('GET', '/ServiceProviderConfig', token);
    assert.equal(config.statusCode, 200, config.body);
    assert.match(String(config.headers['content-type']), /^application\/scim\+json/);
    const spc = config.json() as Record<string, { supported: boolean }>;
    assert.equal(spc.patch!.supported, true);
    assert.equal(spc.filter!.supported, true);
    assert.equal(spc.bulk!.supported, false);
    const types = (await scim('GET', '/ResourceTypes', token)).json() as {
      Resources: Array<{ id: string; endpoint: string }>;
    };
    assert.deepEqual(types.Resources.map((r) => r.endpoint).sort(), ['/Groups', '/Users']);
    const schemas = (await scim('GET', '/Schemas', token)).json() as { Resources: Array<{ id: string }> };
    assert.ok(schemas.Resources.some((s) => s.id === 'urn:ietf:params:scim:schemas:core:2.0:User'));
    const user = await scim('GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:User', token);
    assert.equal(user.statusCode, 200, user.body);
    expectScimError(await scim('GET', '/Schemas/urn:nope', token), 404);
    expectScimError(await scim('GET', '/ResourceTypes/Nope', token), 404);
  });
});

describe('lists, filters and paging', () => {
  it('pages in a stable order with an integer total, whatever the page size', async () => {
    const { token } = await addDirectory();
    for (let i = 0; i < 7; i++) {
      const response = await scim('POST', '/Users', token, {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `pager${i}@acme.test`,
        name: { givenName: 'Page', familyName: `Number ${i}` },
      });
      assert.equal(response.statusCode, 201, response.body);
    }
    type List = {
      totalResults: number;
      startIndex: number;
      itemsPerPage: number;
      Resources: Array<{ id: string }>;
    };
    const all = (await scim('GET', '/Users?startIndex=1&count=200', token)).json() as List;
    assert.ok(Number.isInteger(all.totalResults));
    assert.equal(all.totalResults, all.Resources.length);
    const paged: string[] = [];
    for (let start = 1; start <= all.totalResults; start += 3) {
      const page = (await scim('GET', `/Users?startIndex=${start}&count=3`, token)).json() as List;
      assert.equal(page.totalResults, all.totalResults);
      assert.equal(page.startIndex, start);
      assert.equal(page.itemsPerPage, page.Resources.length);
      paged.push(...page.Resources.map((r) => r.id));
    }
    assert.deepEqual(
      paged,
      all.Resources.map((r) => r.id),
    );
    const again = (await scim('GET', '/Users?startIndex=1&count=200', token)).json() as List;
    assert.deepEqual(
      again.Resources.map((r) => r.id),
      paged,
      'the same order each time',
    );
    const beyond = (
      await scim('GET', `/Users?startIndex=${all.totalResults + 5}&count=3`, token)
    ).json() as List;
    assert.equal(beyond.Resources.length, 0);
    assert.equal(beyond.totalResults, all.totalResults);
    const none = (await scim('GET', '/Users?count=0', token)).json() as List;
    assert.equal(none.Resources.length, 0);
    assert.equal(none.totalResults, all.totalResults);
    // RFC 7644 §3.4.2.4: a startIndex below 1 is 1.
    const low = (await scim('GET', '/Users?startIndex=0&count=2', token)).json() as List;
    assert.equal(low.startIndex, 1);
    assert.deepEqual(
      low.Resources.map((r) => r.id),
      paged.slice(0, 2),
    );
  });

  it('filters with eq and and, in any case of the attribute, and refuses what it does not support', async () => {
    const { token } = await addDirectory();
    await scim('POST', '/Users', token, {
      userName: 'Filter.Me@Acme.test',
      externalId: 'ext-filter-1',
      name: { givenName: 'Filter', familyName: 'Me' },
    });
    const total = async (filter: string) => {
      const response = await scim('GET', `/Users?filter=${filter}`, token);
      assert.equal(response.statusCode, 200, `${filter}: ${response.body}`);
      return (response.json() as { totalResults: number }).totalResults;
    };
    assert.equal(await total('userName eq "filter.me@acme.test"'), 1);
    assert.equal(await total('USERNAME EQ "FILTER.ME@ACME.TEST"'), 1);
    assert.equal(await total('userName eq "filter.me@acme.test" and externalId eq "ext-filter-1"'), 1);
    assert.equal(await total('userName eq "filter.me@acme.test" and externalId eq "ext-filter-2"'), 0);
    assert.equal(await total('externalId eq "EXT-FILTER-1"'), 0, 'externalId is case-exact');
    assert.equal(await total('emails[type eq "work"].value eq "filter.me@acme.test"'), 1);
    assert.equal(await total('emails[type eq "home"].value eq "filter.me@acme.test"'), 0);
    assert.equal(await total('displayName eq "Filter Me"'), 1);
    assert.equal(
      await total('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "filter.me@acme.test"'),
      1,
    );
    for (const filter of [
      'userName eq "a@acme.test" or userName eq "b@acme.test"',
      'userName sw "filter"',
      'not (userName eq "x")',
      'title eq "x"',
      'userName eq',
      'userName eq 3',
      '((',
    ])
      expectScimError(await scim('GET', `/Users?filter=${filter}`, token), 400, 'invalidFilter');
    expectScimError(await scim('GET', '/Users?count=abc', token), 400, 'invalidValue');
  });
});

describe('members through SCIM', () => {
  const patchOp = (operations: unknown[]) => ({
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: operations,
  });

  it('ends the sessions and tokens of a member it deactivates, and lets them back when activated', async () => {
    const { token } = await addDirectory();
    await addUser(t, { email: 'leaver@acme.test', name: 'Lee Ver', permissions: ['EDITOR'] });
    const session = await sessionFor(t.app, 'leaver@acme.test');
    const access = (await tokenFor(t.app, 'leaver@acme.test')).accessToken;
    assert.equal((await api(t, 'GET', '/connect/userinfo', access)).statusCode, 200);
    const found = (await scim('GET', '/Users?filter=userName eq "leaver@acme.test"', token)).json() as {
      Resources: Array<{ id: string }>;
    };
    const id = found.Resources[0]!.id;
    const off = await scim(
      'PATCH',
      `/Users/${id}`,
      token,
      patchOp([{ op: 'replace', value: { active: false } }]),
    );
    assert.equal(off.statusCode, 200, off.body);
    assert.equal((off.json() as { active: boolean }).active, false);
    const live = await t.db.kysely
      .selectFrom('sessions')
      .select('revoked_at')
      .where('public_id', '=', session.publicId)
      .executeTakeFirstOrThrow();
    assert.notEqual(live.revoked_at, null, 'the session ended');
    expectError(await api(t, 'GET', '/connect/userinfo', access), 401);
    const actions = await t.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'actor_name'])
      .where('target', '=', 'leaver@acme.test')
      .execute();
    assert.ok(actions.some((a) => a.action === 'member.disabled' && a.actor_name?.startsWith('Directory')));
    const on = await scim(
      'PATCH',
      `/Users/${id}`,
      token,
      patchOp([{ op: 'Replace', path: 'active', value: 'True' }]),
    );
    assert.equal((on.json() as { active: boolean }).active, true, on.body);
  });

  it('never leaves the team without an active owner', async () => {
    const { token } = await addDirectory();
    const ada = who.ids['ada@acme.test']!;
    expectScimError(await scim('DELETE', `/Users/${ada}`, token), 403);
    expectScimError(
      await scim('PATCH', `/Users/${ada}`, token, patchOp([{ op: 'replace', path: 'active', value: false }])),
      403,
    );
    const still = (await scim('GET', `/Users/${ada}`, token)).json() as { active: boolean };
    assert.equal(still.active, true);
  });

  it('gives exactly one of two parallel creates the last seat, and makes no half member', async () => {
    const { token } = await addDirectory();
    const team = await t.db.kysely
      .selectFrom('teams')
      .select(['id', 'member_count'])
      .where('name', '=', 'acme')
      .executeTakeFirstOrThrow();
    const pending = await t.db.kysely
      .selectFrom('invitations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', team.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('superseded_at', 'is', null)
      .where('expires_at', '>', t.clock.now())
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('teams')
      .set({ seat_limit: team.member_count + Number(pending.n) + 1 })
      .where('id', '=', team.id)
      .execute();
    const answers = await Promise.all(
      ['racer.one@acme.test', 'racer.two@acme.test'].map((userName) =>
        scim('POST', '/Users', token, { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    assert.deepEqual(statuses, [201, 403], answers.map((a) => a.body).join('\n'));
    expectScimError(
      answers.find((a) => a.statusCode === 403)!,
      403,
    );
    const made = await t.db.kysely
      .selectFrom('users')
      .select('email')
      .where('email', 'in', ['racer.one@acme.test', 'racer.two@acme.test'])
      .execute();
    assert.equal(made.length, 1);
    const after = await t.db.kysely
      .selectFrom('teams')
      .select('member_count')
      .where('id', '=', team.id)
      .executeTakeFirstOrThrow();
    assert.equal(after.member_count, team.member_count + 1);
  });

  it('mails a member it makes a link to set a password when the directory says so', async () => {
    const { token } = await addDirectory(who.owner, 'invitation');
    const made = await scim('POST', '/Users', token, {
      userName: 'newcomer@acme.test',
      name: { givenName: 'New', familyName: 'Comer' },
    });
    assert.equal(made.statusCode, 201, made.body);
    const mail = await smtp.next('newcomer@acme.test', /invit/i);
    assert.ok(mail.link?.startsWith(`${PUBLIC_URL}/login/acme/resetPassword?id=`), mail.link ?? '');
    const link = new URL(mail.link!);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/user/password/reset',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        teamName: 'acme',
        userId: link.searchParams.get('id'),
        token: link.searchParams.get('token'),
        newPassword: 'a long new password 42',
      }),
    });
    assert.equal(reset.statusCode, 200, reset.body);
    const user = await t.db.kysely
      .selectFrom('users')
      .select(['password_hash', 'last_sign_in_at'])
      .where('email', '=', 'newcomer@acme.test')
      .executeTakeFirstOrThrow();
    assert.notEqual(user.password_hash, null);
  });

  it('mails a member it made disabled once it enables them, and not again while they have a password', async () => {
    const { token } = await addDirectory(who.owner, 'invitation');
    const made = await scim('POST', '/Users', token, { userName: 'later@acme.test', active: false });
    assert.equal(made.statusCode, 201, made.body);
    const id = (made.json() as { id: string }).id;
    const patch = (active: boolean) =>
      scim('PATCH', `/Users/${id}`, token, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'active', value: active }],
      });
    assert.equal((await patch(true)).statusCode, 200);
    const mail = await smtp.next('later@acme.test', /invit/i);
    assert.ok(mail.link?.includes(`/login/acme/resetPassword?id=${id}&token=`), mail.link ?? '');
    const tickets = () =>
      t.db.kysely
        .selectFrom('password_resets')
        .select('id')
        .where('user_id', '=', id)
        .where('superseded_at', 'is', null)
        .execute();
    assert.equal((await tickets()).length, 1);
    await t.db.kysely.updateTable('users').set({ password_hash: 'set' }).where('id', '=', id).execute();
    assert.equal((await patch(false)).statusCode, 200);
    assert.equal((await patch(true)).statusCode, 200);
    assert.equal((await tickets()).length, 1, 'no new ticket for a member with a password');
  });

  it('makes members of an SSO directory without a password or a mail', async () => {
    const { token } = await addDirectory(who.owner, 'sso');
    const made = await scim('POST', '/Users', token, { userName: 'sso.joiner@acme.test', active: false });
    assert.equal(made.statusCode, 201, made.body);
    assert.equal((made.json() as { active: boolean }).active, false);
    const user = await t.db.kysely
      .selectFrom('users')
      .select(['password_hash', 'last_sign_in_at', 'disabled_at'])
      .where('email', '=', 'sso.joiner@acme.test')
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      { ...user, disabled_at: user.disabled_at !== null },
      {
        password_hash: null,
        last_sign_in_at: null,
        disabled_at: true,
      },
    );
    const resets = await t.db.kysely
      .selectFrom('password_resets')
      .innerJoin('users', 'users.id', 'password_resets.user_id')
      .select('password_resets.id')
      .where('users.email', '=', 'sso.joiner@acme.test')
      .execute();
    assert.equal(resets.length, 0);
  });
});

describe('SCIM errors', () => {
  it('answers every refusal as a SCIM error body, never a 500', async () => {
    const { token } = await addDirectory();
    const user = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'errors@acme.test' };
    expectScimError(
      await scim('POST', '/Users', token, { ...user, userName: 'not an address' }),
      400,
      'invalidValue',
    );
    expectScimError(await scim('POST', '/Users', token, { ...user, userName: 7 }), 400, 'invalidValue');
    expectScimError(
      await scim('POST', '/Users', token, { schemas: ['urn:nope'], userName: 'a@acme.test' }),
      400,
      'invalidSyntax',
    );
    const plain = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      payload: JSON.stringify(user),
    });
    expectScimError(plain, 415);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      payload: '{"userName":',
    });
    expectScimError(broken, 400);
    const made = await scim('POST', '/Users', token, user, 'application/json');
    assert.equal(made.statusCode, 201, 'plain JSON is taken too');
    const id = (made.json() as { id: string }).id;
    const patch = (ops: unknown) =>
      scim('PATCH', `/Users/${id}`, token, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: ops,
      });
    expectScimError(await patch([{ op: 'move', path: 'userName' }]), 400, 'invalidSyntax');
    expectScimError(await patch([{ op: 'replace', path: 'nothing', value: 1 }]), 400, 'invalidPath');
    expectScimError(await patch([{ op: 'replace', path: 'active', value: 'perhaps' }]), 400, 'invalidValue');
    expectScimError(
      await patch([{ op: 'replace', path: 'userName', value: 'bob@acme.test' }]),
      409,
      'uniqueness',
    );
    expectScimError(await scim('PATCH', `/Users/${id}`, token, { Operations: [] }), 400, 'invalidSyntax');
    expectScimError(await scim('GET', '/Users/no-such-id', token), 404);
    expectScimError(await scim('GET', '/Nothing', token), 404);
    const group = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Errors' };
    expectScimError(
      await scim('POST', '/Groups', token, { ...group, members: [{ value: who.ids['carol@globex.test'] }] }),
      400,
      'invalidValue',
    );
    assert.equal((await scim('POST', '/Groups', token, group)).statusCode, 201);
    expectScimError(
      await scim('POST', '/Groups', token, { ...group, displayName: 'ERRORS' }),
      409,
      'uniqueness',
    );
  });
});
