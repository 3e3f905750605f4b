/**
 * A SAML connection's provider details from the provider's metadata (lib/saml-metadata.ts): the
 * document read (entity ID, the HTTP-Redirect sign-on address, the signing certificates, what is
 * refused and why), the metadata URL fetched through the outbound guard (lib/outbound.ts) from a
 * loopback HTTP server of this test — the guard's addresses, the checked address connected to, https
 * outside http sites, redirects checked again, the size and time limits — and both through the
 * connection routes, with the refresh and the retest rule.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { METADATA_MAX_BYTES } from '../../src/contract/connections';
import type { TeamConnection } from '../../src/contract/schemas/connections';
import * as oidc from 'openid-client';
import { guardedFetch, isPublicAddress } from '../../demo/server/lib/outbound';
import { fetchMetadata, readMetadata, type MetadataOutcome } from '../../demo/server/lib/saml-metadata';
import { idpMetadata, signingPair, TestIdp } from '../support/saml-idp';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';

const ENTITY = 'https://idp.example/metadata';
const SSO = 'https://idp.example/sso';
const current = signingPair(30, '/CN=Current');
const next = signingPair(60, '/CN=Next');
const encryption = signingPair(30, '/CN=Encryption');

const metadata = (changes: Partial<Parameters<typeof idpMetadata>[0]> = {}) =>
  idpMetadata({ entityId: ENTITY, ssoUrl: SSO, keys: [{ cert: current.cert, use: 'signing' }], ...changes });

function problemOf(outcome: MetadataOutcome) {
  return outcome.ok ? 'ok' : outcome.problem;
}

describe('reading a provider’s metadata', () => {
  it('takes the entity ID, the HTTP-Redirect sign-on URL and every signing certificate', () => {
    const outcome = readMetadata(
      metadata({
        keys: [
          { cert: current.cert, use: 'signing' },
          { cert: encryption.cert, use: 'encryption' },
          { cert: next.cert }, // no `use`: signing too
        ],
      }),
    );
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.details.entityId, ENTITY);
    assert.equal(outcome.details.ssoUrl, SSO, 'the redirect binding’s, not the POST one listed first');
    assert.deepEqual(outcome.details.certificates, [current.cert, next.cert]);
  });

  it('takes the one identity provider of an EntitiesDescriptor, and refuses two', () => {
    const entity = (xml: string) => xml.replace(/^<\?xml[^>]*>\s*/, '');
    const sp = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://sp.example"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>`;
    const group = (...entities: string[]) =>
      `<EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">${entities.join('')}</EntitiesDescriptor>`;
    const one = readMetadata(group(sp, entity(metadata())));
    assert.ok(one.ok && one.details.entityId === ENTITY, JSON.stringify(one));
    const two = readMetadata(
      group(entity(metadata()), entity(metadata({ entityId: 'https://other.example' }))),
    );
    assert.equal(problemOf(two), 'multipleProviders');
  });

  it('refuses a document type declaration before parsing it (XXE, billion laughs)', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>${metadata()
      .replace(/^<\?xml[^>]*>/, '')
      .replace(ENTITY, '&b;')}`;
    assert.equal(problemOf(readMetadata(laughs)), 'doctype');
    const external = `<?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><x/>`;
    assert.equal(problemOf(readMetadata(external)), 'doctype');
  });

  it('says what is missing or wrong, each with its own code', () => {
    assert.equal(problemOf(readMetadata(metadata({ redirect: false }))), 'noRedirectService');
    assert.equal(
      problemOf(readMetadata(metadata({ keys: [{ cert: encryption.cert, use: 'encryption' }] }))),
      'noSigningCertificate',
    );
    assert.equal(
      problemOf(readMetadata(metadata({ keys: [{ cert: '-----BEGIN CERTIFICATE-----\nMIIBnot\n' }] }))),
      'invalidCertificate',
    );
    assert.equal(problemOf(readMetadata(metadata({ ssoUrl: 'http://idp.example/sso' }))), 'invalidSsoUrl');
    assert.equal(problemOf(readMetadata(metadata({ entityId: ' ' }))), 'noEntityId');
    assert.equal(
      problemOf(
        readMetadata(
          metadata()
            .replace('IDPSSODescriptor', 'SPSSODescriptor')
            .replace('IDPSSODescriptor', 'SPSSODescriptor'),
        ),
      ),
      'noProvider',
    );
    assert.equal(problemOf(readMetadata('<html><body>Sign in</body></html>')), 'notMetadata');
    assert.equal(problemOf(readMetadata('not xml at all')), 'notMetadata');
    assert.equal(problemOf(readMetadata('')), 'notMetadata');
    const padded = metadata().replace(
      '</md:EntityDescriptor>',
      `<!--${'x'.repeat(METADATA_MAX_BYTES)}--></md:EntityDescriptor>`,
    );
    assert.equal(problemOf(readMetadata(padded)), 'tooLarge');
  });
});

describe('the outbound guard’s addresses', () => {
  it('refuses loopback, private, link-local, unique-local, CGNAT, multicast, unspecified and mapped ones', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'fc00::5',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:a00:1',
      '::ffff:169.254.169.254',
      '64:ff9b::10.0.0.1',
      'localhost',
      'fe80::1%eth0',
    ])
      assert.equal(isPublicAddress(address), false, address);
  });

  it('allows public addresses, IPv4 inside IPv6 included', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      assert.equal(isPublicAddress(address), true, address);
  });
});

/** A provider's web server on loopback: its metadata, and the ways a server can misbehave. */
let server: Server;
let base: string;
let served = metadata();
const hits: string[] = [];
before(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://x');
    hits.push(url.pathname);
    if (url.pathname === '/metadata') {
      response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
      response.end(served);
    } else if (url.pathname === '/endless') {
      response.writeHead(200, { 'content-type': 'application/xml' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const write = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', write);
      };
      write();
    } else if (url.pathname === '/announced') {
      response.writeHead(200, { 'content-length': String(10 * METADATA_MAX_BYTES) });
      response.write('<');
    } else if (url.pathname === '/redirect') {
      response.writeHead(302, { location: url.searchParams.get('to')! });
      response.end();
    } else if (url.pathname === '/oidc/.well-known/openid-configuration') {
      // A provider whose document names its token endpoint on another host (resolved by each test).
      const port = url.port || (server.address() as AddressInfo).port;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          issuer: `http://idp.test:${port}/oidc`,
          token_endpoint: `http://internal.test:${port}/token`,
          jwks_uri: `http://idp.test:${port}/jwks`,
          response_types_supported: ['code'],
        }),
      );
    } else if (url.pathname === '/token') {
      let form = '';
      request.on('data', (chunk: Buffer) => (form += chunk));
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            access_token: `for ${request.method} ${new URLSearchParams(form).get('grant_type')}`,
            token_type: 'Bearer',
          }),
        );
      });
    } else if (url.pathname === '/silent') {
      // Never answers.
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const open = { publicUrl: 'http://localhost:8080', privateAddresses: true };
const guarded = { publicUrl: 'http://localhost:8080', privateAddresses: false };

describe('fetching a metadata URL', () => {
  it('reads the metadata from the address when private addresses are allowed', async () => {
    const outcome = await fetchMetadata(`${base}/metadata`, open);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.details.entityId, ENTITY);
  });

  it('refuses loopback and private addresses with the guard on, before connecting', async () => {
    const before = hits.length;
    const port = new URL(base).port;
    for (const url of [
      `${base}/metadata`,
      `http://localhost:${port}/metadata`,
      `http://[::1]:${port}/metadata`,
      `http://[::ffff:127.0.0.1]:${port}/metadata`,
      'http://10.0.0.1/metadata',
      'http://169.254.169.254/latest/meta-data',
    ])
      assert.equal(problemOf(await fetchMetadata(url, guarded)), 'forbiddenAddress', url);
    assert.equal(hits.length, before, 'no request reached the server');
  });

  it('refuses a name with any address inside the network, and connects to the address it checked', async () => {
    const lookups: string[] = [];
    const resolveTo =
      (...addresses: string[]) =>
      async (host: string) => {
        lookups.push(host);
        return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      };
    const port = new URL(base).port;
    const split = await fetchMetadata(`http://idp.test:${port}/metadata`, {
      ...guarded,
      outbound: { lookup: resolveTo('93.184.216.34', '10.1.2.3') },
    });
    assert.equal(problemOf(split), 'forbiddenAddress');
    // A name no resolver knows, checked once (here: only 127.0.0.1 allowed) and connected to as checked.
    const pinned = await fetchMetadata(`http://idp.test:${port}/metadata`, {
      ...guarded,
      outbound: { lookup: resolveTo('127.0.0.1'), addressAllowed: (a) => a === '127.0.0.1' },
    });
    assert.ok(pinned.ok, JSON.stringify(pinned));
    assert.deepEqual(lookups, ['idp.test', 'idp.test']);
  });

  it('takes only https where the site itself is on https', async () => {
    const outcome = await fetchMetadata(`${base}/metadata`, { ...open, publicUrl: 'https://portal.example' });
    assert.equal(problemOf(outcome), 'insecureUrl');
    assert.equal(problemOf(await fetchMetadata('ftp://idp.example/metadata', open)), 'invalidUrl');
    assert.equal(problemOf(await fetchMetadata('https://user:pw@idp.example/m', open)), 'invalidUrl');
  });

  it('checks a redirect’s address again, and follows only a few', async () => {
    const onlyLoopback = { ...guarded, outbound: { addressAllowed: (a: string) => a === '127.0.0.1' } };
    const to = (target: string) => `${base}/redirect?to=${encodeURIComponent(target)}`;
    const followed = await fetchMetadata(to(`${base}/metadata`), onlyLoopback);
    assert.ok(followed.ok, JSON.stringify(followed));
    const before = hits.length;
    assert.equal(
      problemOf(await fetchMetadata(to('http://169.254.169.254/latest/meta-data'), onlyLoopback)),
      'forbiddenAddress',
    );
    assert.deepEqual(hits.slice(before), ['/redirect']);
    assert.equal(
      problemOf(await fetchMetadata(to(to(to(to(`${base}/metadata`)))), onlyLoopback)),
      'tooManyRedirects',
    );
    assert.equal(problemOf(await fetchMetadata(to('file:///etc/passwd'), onlyLoopback)), 'invalidUrl');
  });

  it('stops reading past the size limit, and gives up on a server that does not answer', async () => {
    assert.equal(problemOf(await fetchMetadata(`${base}/endless`, open)), 'tooLarge');
    assert.equal(problemOf(await fetchMetadata(`${base}/announced`, open)), 'tooLarge');
    const started = Date.now();
    assert.equal(problemOf(await fetchMetadata(`${base}/silent`, { ...open, timeoutMs: 300 })), 'timeout');
    assert.ok(Date.now() - started < 2_000, 'within the time limit');
    assert.equal(problemOf(await fetchMetadata(`${base}/missing`, open)), 'badStatus');
    assert.equal(problemOf(await fetchMetadata('http://127.0.0.1:1/metadata', open)), 'unreachable');
  });
});

describe('a library’s requests through the guard (openid-client)', () => {
  const resolving = (names: Record<string, string>) => async (host: string) => [
    { address: names[host]!, family: 4 },
  ];
  const discover = (names: Record<string, string>) => {
    const port = new URL(base).port;
    return oidc.discovery(new URL(`http://idp.test:${port}/oidc`), 'client', 'secret', undefined, {
      execute: [oidc.allowInsecureRequests],
      [oidc.customFetch]: guardedFetch({
        allowHttp: true,
        addressAllowed: (address) => address === '127.0.0.1',
        maxBytes: 64 * 1024,
        lookup: resolving(names),
      }),
    });
  };

  it('guards every endpoint the provider’s document names, not only the issuer', async () => {
    const config = await discover({ 'idp.test': '127.0.0.1', 'internal.test': '10.1.2.3' });
    const before = hits.length;
    await assert.rejects(oidc.clientCredentialsGrant(config), (error: Error) =>
      String((error.cause as Error | undefined)?.message ?? error.message).includes('does not reach'),
    );
    assert.deepEqual(hits.slice(before), [], 'the token request reached nothing');
  });

  it('sends the library’s request as it is, to the address it checked', async () => {
    const config = await discover({ 'idp.test': '127.0.0.1', 'internal.test': '127.0.0.1' });
    const tokens = await oidc.clientCredentialsGrant(config);
    assert.equal(tokens.access_token, 'for POST client_credentials');
  });
});

describe('a connection’s details from its metadata', () => {
  let t: TestApp;
  let who: Callers;
  let idp: TestIdp;
  before(async () => {
    t = await createTestApp();
    who = await callers(t);
    idp = new TestIdp();
    served = idp.metadata();
  });
  after(() => t.close());

  const add = (body: Record<string, unknown>, token = who.owner) =>
    api(t, 'POST', '/api/team/connections', token, { preset: 'saml', name: 'Acme IdP', ...body });

  it('adds from a metadata URL, keeps the URL, and from pasted XML without one', async () => {
    const fromUrl = await add({ metadataUrl: `${base}/metadata` });
    assert.equal(fromUrl.statusCode, 201, fromUrl.body);
    const connection = fromUrl.json() as TeamConnection;
    assert.deepEqual(
      [connection.idpEntityId, connection.ssoUrl, connection.metadataUrl],
      [idp.entityId, idp.ssoUrl, `${base}/metadata`],
    );
    assert.equal(connection.certificates[0]?.pem, idp.pair.cert);
    const fromXml = await add({ metadataXml: idp.metadata() });
    assert.equal(fromXml.statusCode, 201, fromXml.body);
    assert.deepEqual(
      [(fromXml.json() as TeamConnection).idpEntityId, (fromXml.json() as TeamConnection).metadataUrl],
      [idp.entityId, null],
    );
  });

  it('refuses at the metadata’s field, with the problem’s code', async () => {
    expectError(
      await add({ metadataXml: metadata({ redirect: false }) }),
      400,
      'noRedirectService',
      'metadataXml',
    );
    expectError(await add({ metadataXml: '<!DOCTYPE x><x/>' }), 400, 'doctype', 'metadataXml');
    expectError(
      await add({ metadataXml: 'x'.repeat(METADATA_MAX_BYTES + 1) }),
      400,
      'tooLarge',
      'metadataXml',
    );
    expectError(await add({ metadataUrl: `${base}/missing` }), 400, 'badStatus', 'metadataUrl');
    expectError(await add({ metadataUrl: 'http://127.0.0.1:1/' }), 400, 'unreachable', 'metadataUrl');
    expectError(await add({ metadataUrl: '' }), 400, 'invalidUrl', 'metadataUrl');
    expectError(
      await add({ metadataUrl: `${base}/metadata`, idpEntityId: ENTITY }),
      400,
      'mixedDetails',
      'metadataUrl',
    );
    expectError(
      await add({ metadataXml: metadata(), certificates: [current.cert] }),
      400,
      'mixedDetails',
      'metadataXml',
    );
    expectError(await add({ metadataUrl: `${base}/metadata`, metadataXml: metadata() }), 400, 'mixedDetails');
  });

  it('is the existing routes’ to authorise: no fetch for a member or another team’s admin', async () => {
    const { id } = (await add({ metadataUrl: `${base}/metadata` })).json() as TeamConnection;
    const before = hits.length;
    const change = { metadataUrl: `${base}/metadata` };
    expectError(await add(change, ''), 401);
    expectError(await add(change, who.member), 403, 'notAdmin');
    expectError(await api(t, 'PATCH', `/api/team/connections/${id}`, undefined, change), 401);
    expectError(await api(t, 'PATCH', `/api/team/connections/${id}`, who.member, change), 403, 'notAdmin');
    expectError(
      await api(t, 'PATCH', `/api/team/connections/${id}`, who.otherAdmin, change),
      404,
      'notFound',
    );
    assert.equal(hits.length, before, 'nothing fetched');
    const refreshed = await api(t, 'PATCH', `/api/team/connections/${id}`, who.admin, change);
    assert.equal(refreshed.statusCode, 200, refreshed.body);
  });

  it('a refresh takes rotated certificates and stays on; another sign-on URL turns it off', async () => {
    const connection = (await add({ metadataUrl: `${base}/metadata` })).json() as TeamConnection;
    const at = `/api/team/connections/${connection.id}`;
    const started = (await api(t, 'POST', `${at}/test`, who.owner)).json() as { url: string };
    const answered = await idp.answerRedirect(started.url, { email: 'ada@acme.test' });
    const posted = await t.app.inject({
      method: 'POST',
      url: new URL(answered.action).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        SAMLResponse: answered.SAMLResponse,
        RelayState: answered.RelayState,
      }).toString(),
    });
    assert.equal(posted.statusCode, 303, posted.body);
    assert.equal((await api(t, 'PATCH', at, who.owner, { enabled: true })).statusCode, 200);

    served = idpMetadata({
      entityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      keys: [
        { cert: idp.pair.cert, use: 'signing' },
        { cert: next.cert, use: 'signing' },
      ],
    });
    const rotated = (
      await api(t, 'PATCH', at, who.owner, { metadataUrl: connection.metadataUrl })
    ).json() as TeamConnection;
    assert.deepEqual([rotated.enabled, rotated.certificates.length], [true, 2]);

    served = idpMetadata({
      entityId: idp.entityId,
      ssoUrl: `${idp.ssoUrl}2`,
      keys: [{ cert: idp.pair.cert }],
    });
    const moved = (
      await api(t, 'PATCH', at, who.owner, { metadataUrl: connection.metadataUrl })
    ).json() as TeamConnection;
    assert.deepEqual([moved.enabled, moved.testedAt, moved.ssoUrl], [false, null, `${idp.ssoUrl}2`]);

    const typed = (await api(t, 'PATCH', at, who.owner, { ssoUrl: idp.ssoUrl })).json() as TeamConnection;
    assert.equal(typed.metadataUrl, null, 'typed details forget the metadata address');
    served = idp.metadata();
  });

  it('refuses a metadata URL inside the network when OUTBOUND_PRIVATE_ADDRESSES is refuse', async () => {
    const strict = await createTestApp({ OUTBOUND_PRIVATE_ADDRESSES: 'refuse' });
    try {
      const token = (await callers(strict)).owner;
      const before = hits.length;
      const response = await api(strict, 'POST', '/api/team/connections', token, {
        preset: 'saml',
        name: 'Inside',
        metadataUrl: `${base}/metadata`,
      });
      expectError(response, 400, 'forbiddenAddress', 'metadataUrl');
      assert.equal(hits.length, before);
    } finally {
      await strict.close();
    }
  });
});
