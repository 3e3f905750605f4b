/**
 * A team's enterprise connections through its admin API (routes/connections.ts): who may manage them,
 * what is refused at which field, this site's service-provider metadata, and the test sign-in end to
 * end over HTTP — the provider (samlify's, test/support/saml-idp.ts) answering the request the test
 * made, posted to the connection's ACS URL as a browser would, the result kept for the screen — and
 * that only a passed test lets a connection be turned on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TeamConnection, TeamConnectionList } from '../../src/contract/schemas/connections';
import type { AuditList } from '../../src/contract/schemas/team';
import { TestIdp } from '../support/saml-idp';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
let who: Callers;
let idp: TestIdp;
before(async () => {
  t = await createTestApp();
  who = await callers(t);
  idp = new TestIdp();
});
after(() => t.close());

/** The certificate as a provider's console shows it: base64 without the PEM lines. */
const bare = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

async function added(token = who.owner, changes: Record<string, unknown> = {}): Promise<TeamConnection> {
  const response = await api(t, 'POST', '/api/team/connections', token, {
    preset: 'okta',
    name: 'Acme Okta',
    idpEntityId: idp.entityId,
    ssoUrl: idp.ssoUrl,
    certificates: [idp.pair.cert],
    ...changes,
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as TeamConnection;
}

/** The test sign-in as the admin's browser makes it: ask, go to the provider, post its answer back. */
async function testSignIn(connection: TeamConnection, user = { email: 'ada@acme.test' }, token = who.owner) {
  const started = await api(t, 'POST', `/api/team/connections/${connection.id}/test`, token);
  assert.equal(started.statusCode, 200, started.body);
  const url = new URL((started.json() as { url: string }).url);
  const request = await idp.requestId(url.href, connection.serviceProvider);
  const answer = await idp.answer(connection.serviceProvider, request, {
    email: user.email,
    attributes: { email: user.email, firstName: 'Ada', lastName: 'Lovelace', groups: ['Engineering'] },
  });
  return t.app.inject({
    method: 'POST',
    url: new URL(connection.serviceProvider.acsUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example' },
    payload: new URLSearchParams({
      SAMLResponse: answer,
      RelayState: url.searchParams.get('RelayState')!,
    }).toString(),
  });
}

const current = async (id: string) =>
  ((await api(t, 'GET', '/api/team/connections', who.owner)).json() as TeamConnectionList).connections.find(
    (c) => c.id === id,
  )!;

describe('who may manage the team’s connections', () => {
  it('refuses without a token (401) and a member (403 notAdmin) on every call', async () => {
    const { id } = await added();
    for (const [method, url, body] of [
      ['GET', '/api/team/connections', undefined],
      [
        'POST',
        '/api/team/connections',
        { preset: 'saml', name: 'x', idpEntityId: 'x', ssoUrl: 'https://x', certificates: ['x'] },
      ],
      ['PATCH', `/api/team/connections/${id}`, { name: 'y' }],
      ['POST', `/api/team/connections/${id}/test`, undefined],
      ['DELETE', `/api/team/connections/${id}`, undefined],
    ] as const) {
      expectError(await api(t, method, url, undefined, body), 401);
      expectError(await api(t, method, url, who.member, body), 403, 'notAdmin');
    }
  });

  it('answers another team’s admin 404 for acme’s connection, and lists only their own', async () => {
    const { id } = await added();
    expectError(
      await api(t, 'PATCH', `/api/team/connections/${id}`, who.otherAdmin, { name: 'Mine' }),
      404,
      'notFound',
    );
    expectError(await api(t, 'POST', `/api/team/connections/${id}/test`, who.otherAdmin), 404, 'notFound');
    expectError(await api(t, 'DELETE', `/api/team/connections/${id}`, who.otherAdmin), 404, 'notFound');
    const theirs = (
      await api(t, 'GET', '/api/team/connections', who.otherAdmin)
    ).json() as TeamConnectionList;
    assert.equal(theirs.connections.length, 0);
    assert.equal((await current(id)).name, 'Acme Okta', 'untouched');
  });

  it('lets an admin who is not an owner add, test, turn on and remove', async () => {
    const connection = await added(who.admin);
    assert.equal((await testSignIn(connection, undefined, who.admin)).statusCode, 303);
    const on = await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.admin, { enabled: true });
    assert.equal(on.statusCode, 200, on.body);
    assert.equal(
      (await api(t, 'DELETE', `/api/team/connections/${connection.id}`, who.admin)).statusCode,
      204,
    );
  });
});

describe('adding a connection', () => {
  it('keeps the provider’s details, the preset’s attribute names and this site’s values to give', async () => {
    const connection = await added(who.owner, { certificates: [bare(idp.pair.cert)] });
    assert.equal(connection.protocol, 'saml');
    assert.equal(connection.mapping.givenName, 'firstName', 'Okta’s attribute names');
    assert.equal(connection.enabled, false);
    assert.equal(connection.testedAt, null);
    assert.equal(connection.certificates.length, 1);
    assert.match(connection.certificates[0]!.subject, /CN=Test IdP/);
    assert.ok(Date.parse(connection.certificates[0]!.notAfter) > Date.now());
    const base = `${t.config.publicUrl}/saml/${connection.id}`;
    assert.deepEqual(connection.serviceProvider, {
      entityId: base,
      acsUrl: `${base}/acs`,
      metadataUrl: `${base}/metadata`,
      redirectUri: `${t.config.publicUrl}/sso/callback`,
    });
  });

  it('refuses at the field: a name, a sign-on URL that is not https, a certificate that is none', async () => {
    const post = (changes: Record<string, unknown>) =>
      api(t, 'POST', '/api/team/connections', who.owner, {
        preset: 'saml',
        name: 'Acme',
        idpEntityId: idp.entityId,
        ssoUrl: idp.ssoUrl,
        certificates: [idp.pair.cert],
        ...changes,
      });
    expectError(await post({ name: '  ' }), 400, 'invalidName', 'name');
    expectError(await post({ ssoUrl: 'http://idp.example/sso' }), 400, 'insecureUri', 'ssoUrl');
    expectError(await post({ ssoUrl: 'not a url' }), 400, 'invalidUri', 'ssoUrl');
    expectError(
      await post({ certificates: [idp.pair.cert, 'MIIBnotacert'] }),
      400,
      'invalidCertificate',
      'certificates.1',
    );
    expectError(await post({ preset: 'oidc' }), 400);
  });

  it('publishes this site’s service-provider metadata for the provider’s setup', async () => {
    const connection = await added();
    const response = await t.app.inject({ url: new URL(connection.serviceProvider.metadataUrl).pathname });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] as string, /^application\/samlmetadata\+xml/);
    assert.ok(response.body.includes(`entityID="${connection.serviceProvider.entityId}"`));
    assert.ok(response.body.includes(`Location="${connection.serviceProvider.acsUrl}"`));
    assert.ok(response.body.includes('WantAssertionsSigned="true"'));
    assert.equal((await t.app.inject({ url: '/saml/nope/metadata' })).statusCode, 404);
  });
});

describe('testing and turning on', () => {
  it('adds a connection before the provider’s details are known, and tests it only once they are', async () => {
    const response = await api(t, 'POST', '/api/team/connections', who.owner, {
      preset: 'entra',
      name: 'Entra',
    });
    assert.equal(response.statusCode, 201, response.body);
    const connection = response.json() as TeamConnection;
    assert.deepEqual([connection.idpEntityId, connection.ssoUrl, connection.certificates], [null, null, []]);
    assert.match(connection.mapping.email, /emailaddress$/, 'Entra ID’s claim names');
    expectError(
      await api(t, 'POST', `/api/team/connections/${connection.id}/test`, who.owner),
      409,
      'incomplete',
    );
    const completed = await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, {
      idpEntityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificates: [idp.pair.cert],
    });
    assert.equal(completed.statusCode, 200, completed.body);
    assert.equal((await testSignIn(completed.json() as TeamConnection)).statusCode, 303);
  });

  it('refuses to turn on a connection no test has passed', async () => {
    const connection = await added();
    expectError(
      await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { enabled: true }),
      409,
      'notTested',
    );
  });

  it('a passed test keeps the claims received for the screen; then it can be turned on', async () => {
    const connection = await added();
    const answered = await testSignIn(connection);
    assert.equal(answered.statusCode, 303);
    assert.equal(
      answered.headers.location,
      `${t.config.publicUrl}/manage/team/connections?test=${connection.id}`,
    );
    assert.equal(answered.headers['set-cookie'], undefined, 'no session');
    const after = await current(connection.id);
    assert.ok(after.testedAt);
    assert.equal(after.lastTest?.ok, true);
    assert.deepEqual(
      {
        email: after.lastTest?.claims?.email,
        given: after.lastTest?.claims?.givenName,
        groups: after.lastTest?.claims?.groups,
      },
      { email: 'ada@acme.test', given: 'Ada', groups: ['Engineering'] },
    );
    const on = await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { enabled: true });
    assert.equal((on.json() as TeamConnection).enabled, true);
  });

  it('a failed test says why, and lets nothing be turned on', async () => {
    const connection = await added();
    const answered = await testSignIn(connection, { email: 'eve@evil.example' });
    assert.equal(answered.statusCode, 303);
    const after = await current(connection.id);
    assert.equal(after.testedAt, null);
    assert.deepEqual([after.lastTest?.ok, after.lastTest?.problem], [false, 'domain']);
    expectError(
      await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { enabled: true }),
      409,
      'notTested',
    );
  });

  it('another provider or other claims turn it off until a test passes again; a new certificate does not', async () => {
    const connection = await added();
    await testSignIn(connection);
    await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { enabled: true });
    const rotated = await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, {
      certificates: [idp.pair.cert, new TestIdp().pair.cert],
    });
    assert.equal((rotated.json() as TeamConnection).enabled, true);
    const moved = await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, {
      ssoUrl: 'https://idp.example/sso2',
    });
    assert.deepEqual(
      [(moved.json() as TeamConnection).enabled, (moved.json() as TeamConnection).testedAt],
      [false, null],
    );
  });

  it('an answer posted without the test’s RelayState by a stranger records nothing', async () => {
    const connection = await added();
    const answer = await idp.answer(connection.serviceProvider, null, { email: 'ada@acme.test' });
    const posted = await t.app.inject({
      method: 'POST',
      url: new URL(connection.serviceProvider.acsUrl).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: answer, RelayState: 'test._forged' }).toString(),
    });
    // Refused as a sign-in would be: back to the team's sign-in screen, with no session.
    assert.equal(posted.statusCode, 303);
    assert.equal(posted.headers.location, '/login/acme?Error=SsoFailed');
    assert.equal(posted.headers['set-cookie'], undefined);
    assert.equal((await current(connection.id)).lastTest, null);
  });

  it('puts every change in the team’s audit trail', async () => {
    const connection = await added();
    await testSignIn(connection);
    await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { enabled: true });
    await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { name: 'Okta' });
    await api(t, 'PATCH', `/api/team/connections/${connection.id}`, who.owner, { enabled: false });
    await api(t, 'DELETE', `/api/team/connections/${connection.id}`, who.owner);
    const { events } = (
      await api(t, 'GET', '/api/team/audit?limit=5&kind=connection', who.owner)
    ).json() as AuditList;
    assert.deepEqual(
      events.map((e) => [e.action, e.target]),
      [
        ['connection.removed', 'Okta'],
        ['connection.disabled', 'Okta'],
        ['connection.changed', 'Okta'],
        ['connection.enabled', 'Acme Okta'],
        ['connection.added', 'Acme Okta'],
      ],
    );
  });
});
