/**
 * Setup links (routes/setup-links.ts, docs/decisions/setup-links.md): only owners send, list and revoke
 * them; the mailed link opens in the first browser only; its setup token works on the team's domain and
 * connection routes of that team alone — and on no other route the server has — and stops at once when
 * the link is revoked or expires; the audit trail names the IT contact.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import type { TeamConnection } from '../../src/contract/schemas/connections';
import type { TeamDomain } from '../../src/contract/schemas/domains';
import type { SetupLink, OpenSetupResult } from '../../src/contract/schemas/setup-links';
import type { AuditList } from '../../src/contract/schemas/team';
import { SETUP_ACTOR_PREFIX, SETUP_LINK_TTL_MS } from '../../src/contract/team-rules';
import { sha256 } from '../../demo/server/lib/crypto';
import { TestDns } from '../support/dns';
import { ROUTE_BODIES, ROUTE_PARAMS } from '../support/route-params';
import { TestIdp } from '../support/saml-idp';
import { TestSmtp } from '../support/smtp';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
let smtp: TestSmtp;
let dns: TestDns;
let who: Callers;
let idp: TestIdp;
const routes: RouteOptions[] = [];
before(async () => {
  smtp = await TestSmtp.start();
  dns = await TestDns.start();
  t = await createTestApp(
    { SMTP_URL: smtp.url, DNS_SERVERS: dns.address, PUBLIC_URL: 'https://portal.example.test' },
    (route) => void routes.push(route),
  );
  who = await callers(t);
  idp = new TestIdp();
});
after(async () => {
  await t.close();
  await smtp.close();
  await dns.close();
});
beforeEach(async () => {
  t.clock.offset = 0;
  who = await callers(t);
  await t.db.kysely.deleteFrom('rate_limits').execute();
});

let counter = 0;
const fresh = () => `it${++counter}@acme-it.example`;

/** Ada (acme's owner) sends a link; the token from the mail that arrives. */
async function sent(email = fresh(), headers?: Record<string, string>) {
  const response = await api(t, 'POST', '/api/team/setup-links', who.owner, { email }, headers);
  assert.equal(response.statusCode, 201, response.body);
  const mail = await smtp.next(email.toLowerCase(), /single sign-on|Single Sign-on/);
  const url = new URL(mail.link!);
  assert.match(url.pathname, /^\/setup\/[\w-]{43}$/);
  return { link: response.json() as SetupLink, mail, token: url.pathname.slice('/setup/'.length), email };
}

/** A browser: its cookies (the page's XSRF-TOKEN first, as the portal page sets it). */
class Browser {
  private readonly jar = new Map<string, string>();
  private async page() {
    const page = await t.app.inject({ method: 'GET', url: '/setup/x', headers: { accept: 'text/html' } });
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    this.keep(page);
  }
  private keep(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) this.jar.set(cookie.name, cookie.value);
  }
  cookie(name: string) {
    return this.jar.get(name);
  }
  async open(token: string) {
    if (!this.jar.has('XSRF-TOKEN')) await this.page();
    const response = await t.app.inject({
      method: 'POST',
      url: '/account/setup/open',
      headers: {
        'content-type': 'application/json',
        cookie: [...this.jar].map(([name, value]) => `${name}=${value}`).join('; '),
        'x-xsrf-token': this.jar.get('XSRF-TOKEN')!,
      },
      payload: JSON.stringify({ token }),
    });
    this.keep(response);
    return response;
  }
}

/** The link opened in a new browser: its setup token. */
async function opened(token: string) {
  const browser = new Browser();
  const response = await browser.open(token);
  assert.equal(response.statusCode, 200, response.body);
  return { browser, result: response.json() as OpenSetupResult };
}

function expectGone(response: LightMyRequestResponse, reason: string) {
  assert.equal(response.statusCode, 410, response.body);
  assert.equal(response.json().code, 'gone');
  assert.equal(response.json().reason, reason, response.body);
}

const connectionBody = (name: string) => ({
  preset: 'okta',
  name,
  idpEntityId: idp.entityId,
  ssoUrl: idp.ssoUrl,
  certificates: [idp.pair.cert],
});

describe('who may send, list and revoke setup links', () => {
  it('refuses without a token (401), a member (403), an admin who is no owner (403 notOwner)', async () => {
    const { link } = await sent();
    for (const [method, url, body] of [
      ['GET', '/api/team/setup-links', undefined],
      ['POST', '/api/team/setup-links', { email: fresh() }],
      ['DELETE', `/api/team/setup-links/${link.id}`, undefined],
    ] as const) {
      expectError(await api(t, method, url, undefined, body), 401);
      expectError(await api(t, method, url, who.member, body), 403, 'notOwner');
      expectError(await api(t, method, url, who.admin, body), 403, 'notOwner');
    }
  });

  it("answers another team's owner 404 on revoking acme's link, and lists only their own", async () => {
    const { link, token } = await sent();
    await t.db.kysely
      .insertInto('user_permissions')
      .values({ user_id: who.ids['carol@globex.test']!, permission: 'OWNER' })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const carol = (await callers(t)).otherAdmin;
    expectError(await api(t, 'DELETE', `/api/team/setup-links/${link.id}`, carol), 404, 'notFound');
    const theirs = await api(t, 'GET', '/api/team/setup-links', carol);
    assert.equal(theirs.statusCode, 200, theirs.body);
    assert.ok(!(theirs.json().links as SetupLink[]).some((l) => l.id === link.id));
    await opened(token);
  });

  it('sends the link by mail (token stored hashed), lists it pending then used, and revokes it', async () => {
    const email = fresh();
    const { link, mail, token } = await sent(email.toUpperCase());
    assert.equal(link.email, email);
    assert.equal(link.state, 'pending');
    assert.deepEqual(link.createdBy, { name: 'Ada Lovelace', email: 'ada@acme.test' });
    assert.equal(Date.parse(link.expiresAt) - Date.parse(link.createdAt), SETUP_LINK_TTL_MS);
    assert.match(mail.subject, /Ada Lovelace asks you to set up single sign-on for Acme/);
    assert.match(mail.text, /ada@acme\.test/);
    assert.match(mail.html, /Open the setup/);
    assert.ok(mail.link!.startsWith('https://portal.example.test/setup/'));
    const row = await t.db.kysely
      .selectFrom('setup_links')
      .selectAll()
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.token_hash, sha256(token));
    assert.ok(!JSON.stringify(row).includes(token));

    await opened(token);
    const listed = (await api(t, 'GET', '/api/team/setup-links', who.owner)).json().links as SetupLink[];
    const now = listed.find((l) => l.id === link.id)!;
    assert.equal(now.state, 'used');
    assert.ok(now.openedAt);

    assert.equal((await api(t, 'DELETE', `/api/team/setup-links/${link.id}`, who.owner)).statusCode, 204);
    expectError(await api(t, 'DELETE', `/api/team/setup-links/${link.id}`, who.owner), 404);
    const after = (await api(t, 'GET', '/api/team/setup-links', who.owner)).json().links as SetupLink[];
    assert.equal(after.find((l) => l.id === link.id)!.state, 'revoked');
  });

  it("writes the mail in the owner's language", async () => {
    const email = fresh();
    await api(t, 'POST', '/api/team/setup-links', who.owner, { email }, { 'accept-language': 'de' });
    const mail = await smtp.next(email, /Single Sign-on/);
    assert.match(mail.subject, /bittet Sie, Single Sign-on für Acme/);
    assert.match(mail.text, /Einrichtung öffnen/);
  });

  it('refuses a bad address at its field (400 invalidEmail)', async () => {
    for (const email of ['not-an-address', '', 'a@'])
      expectError(
        await api(t, 'POST', '/api/team/setup-links', who.owner, { email }),
        400,
        'invalidEmail',
        'email',
      );
  });
});

describe('opening a setup link', () => {
  it('binds the link to the first browser: it opens again there, and another browser gets 410 used', async () => {
    const { token, link } = await sent();
    const { browser, result } = await opened(token);
    assert.equal(result.email, link.email);
    assert.deepEqual(result.team, { name: 'acme', displayName: 'Acme' });
    assert.ok(result.expiresIn > 0 && result.expiresIn <= 3600);
    const cookie = browser.cookie('acct_setup');
    assert.ok(cookie && cookie.length >= 43);
    const row = await t.db.kysely
      .selectFrom('setup_links')
      .select(['browser_hash', 'opened_at'])
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.browser_hash, sha256(cookie));
    assert.ok(row.opened_at);

    const again = await browser.open(token);
    assert.equal(again.statusCode, 200, again.body);
    expectGone(await new Browser().open(token), 'used');
    // No cookies at all: a script, not a browser, is no better placed.
    expectGone(await api(t, 'POST', '/account/setup/open', undefined, { token }), 'used');
  });

  it('answers a wrong token 410 invalid, and an expired or revoked link 410 with its reason', async () => {
    expectGone(await new Browser().open('x'.repeat(43)), 'invalid');
    const expiring = await sent();
    t.clock.advance(SETUP_LINK_TTL_MS);
    expectGone(await new Browser().open(expiring.token), 'expired');
    t.clock.offset = 0;
    who = await callers(t);
    const revoked = await sent();
    await api(t, 'DELETE', `/api/team/setup-links/${revoked.link.id}`, who.owner);
    expectGone(await new Browser().open(revoked.token), 'revoked');
  });

  it('counts openings per address (429 past the limit)', async () => {
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 61; i++)
      last = await api(t, 'POST', '/account/setup/open', undefined, { token: 'nope' });
    assert.equal(last!.statusCode, 429, last!.body);
  });
});

describe('what a setup token may do', () => {
  it('lists, adds and verifies the team’s domains and adds and tests its connections', async () => {
    const { token, link } = await sent();
    const setup = (await opened(token)).result.accessToken;

    assert.equal((await api(t, 'GET', '/api/team/domains', setup)).statusCode, 200);
    const added = await api(t, 'POST', '/api/team/domains', setup, { domain: `acme-it-${++counter}.test` });
    assert.equal(added.statusCode, 201, added.body);
    const domain = added.json() as TeamDomain;
    dns.txt.set(domain.recordName, [domain.recordValue]);
    const verified = await api(t, 'POST', `/api/team/domains/${domain.domain}/verify`, setup);
    assert.equal(verified.statusCode, 200, verified.body);
    assert.equal((verified.json() as TeamDomain).state, 'verified');

    assert.equal((await api(t, 'GET', '/api/team/connections', setup)).statusCode, 200);
    const connection = await api(t, 'POST', '/api/team/connections', setup, connectionBody('Acme Okta IT'));
    assert.equal(connection.statusCode, 201, connection.body);
    const { id } = connection.json() as TeamConnection;
    const test = await api(t, 'POST', `/api/team/connections/${id}/test`, setup);
    assert.equal(test.statusCode, 200, test.body);
    const patched = await api(t, 'PATCH', `/api/team/connections/${id}`, setup, { name: 'Acme Okta' });
    assert.equal(patched.statusCode, 200, patched.body);
    const routed = await api(t, 'PATCH', `/api/team/domains/${domain.domain}`, setup, {
      connectionId: id,
      requireSso: false,
    });
    assert.equal(routed.statusCode, 200, routed.body);

    // The owner sees what the IT contact did, by the link's address.
    const audit = (await api(t, 'GET', '/api/team/audit?limit=20', who.owner)).json() as AuditList;
    const theirs = audit.events.filter((e) => e.actor?.id === `${SETUP_ACTOR_PREFIX}${link.id}`);
    const actions = theirs.map((e) => e.action).sort();
    assert.deepEqual(actions, [
      'connection.added',
      'connection.changed',
      'domain.added',
      'domain.signIn',
      'domain.verified',
      'setupLink.opened',
    ]);
    for (const event of theirs)
      assert.deepEqual(event.actor, { id: event.actor!.id, name: 'IT contact', email: link.email });
    const created = audit.events.find((e) => e.action === 'setupLink.created' && e.target === link.email);
    assert.equal(created?.actor?.email, 'ada@acme.test');
  });

  it("reaches only its own team: another team's connection and domain are 404", async () => {
    const theirs = await api(t, 'POST', '/api/team/connections', who.otherAdmin, connectionBody('Globex'));
    assert.equal(theirs.statusCode, 201, theirs.body);
    const { id } = theirs.json() as TeamConnection;
    const globexDomain = `globex-${++counter}.test`;
    assert.equal(
      (await api(t, 'POST', '/api/team/domains', who.otherAdmin, { domain: globexDomain })).statusCode,
      201,
    );
    const setup = (await opened((await sent()).token)).result.accessToken;
    expectError(await api(t, 'POST', `/api/team/connections/${id}/test`, setup), 404);
    expectError(await api(t, 'PATCH', `/api/team/connections/${id}`, setup, { name: 'Mine' }), 404);
    expectError(await api(t, 'DELETE', `/api/team/connections/${id}`, setup), 404);
    expectError(await api(t, 'POST', `/api/team/domains/${globexDomain}/verify`, setup), 404);
    expectError(await api(t, 'DELETE', `/api/team/domains/${globexDomain}`, setup), 404);
    const listed = (await api(t, 'GET', '/api/team/connections', setup)).json()
      .connections as TeamConnection[];
    assert.ok(!listed.some((c) => c.id === id));
  });

  it('stops working at once when its link is revoked or expires', async () => {
    const revoked = await sent();
    const first = (await opened(revoked.token)).result.accessToken;
    assert.equal((await api(t, 'GET', '/api/team/domains', first)).statusCode, 200);
    await api(t, 'DELETE', `/api/team/setup-links/${revoked.link.id}`, who.owner);
    expectError(await api(t, 'GET', '/api/team/domains', first), 401);

    const expiring = await sent();
    const { browser, result } = await opened(expiring.token);
    // Near the link's end the token is still good; past it, not, though the token itself still lives.
    t.clock.advance(SETUP_LINK_TTL_MS - 10 * 60_000);
    const late = (await browser.open(expiring.token)).json() as OpenSetupResult;
    assert.equal((await api(t, 'GET', '/api/team/domains', late.accessToken)).statusCode, 200);
    t.clock.advance(10 * 60_000);
    expectError(await api(t, 'GET', '/api/team/domains', late.accessToken), 401);
    expectError(await api(t, 'GET', '/api/team/domains', result.accessToken), 401);
    expectGone(await browser.open(expiring.token), 'expired');
  });

  it('passes for no other route the server has, and the setup routes still take admins only', async () => {
    const setup = (await opened((await sent()).token)).result.accessToken;
    const others = routes.filter(
      (route) => ['bearer', 'client', 'session'].includes(String(route.config?.auth)) && !route.config?.setup,
    );
    assert.ok(others.length > 40, `routes collected (${others.length})`);
    for (const route of others) {
      for (const method of [route.method].flat()) {
        const key = `${method} ${route.url}`;
        const url = ROUTE_PARAMS[route.url] ?? route.url;
        // A body its schema accepts, so that only the caller's check can refuse the call.
        const body = ROUTE_BODIES[key];
        const response = await api(t, method as 'GET', url, setup, body);
        if (route.config?.auth === 'session') {
          // No session, whatever the token: refused (401), sent to sign in (303), or its body refused.
          assert.ok(
            response.statusCode >= 300 && response.statusCode < 500,
            `${key}: ${response.statusCode}`,
          );
          continue;
        }
        assert.equal(response.statusCode, 401, `${key}: ${response.statusCode} ${response.body}`);
        assert.equal(response.headers['www-authenticate'], 'Bearer error="invalid_token"', key);
      }
    }

    const setupRoutes = routes.filter((route) => route.config?.setup);
    assert.deepEqual(
      setupRoutes.flatMap((route) => [route.method].flat().map((m) => `${m} ${route.url}`)).sort(),
      [
        'DELETE /api/team/connections/:id',
        'DELETE /api/team/domains/:domain',
        'GET /api/team/connections',
        'GET /api/team/domains',
        'HEAD /api/team/connections',
        'HEAD /api/team/domains',
        'PATCH /api/team/connections/:id',
        'PATCH /api/team/domains/:domain',
        'POST /api/team/connections',
        'POST /api/team/connections/:id/test',
        'POST /api/team/domains',
        'POST /api/team/domains/:domain/verify',
      ],
    );
    expectError(await api(t, 'GET', '/api/team/domains', who.member), 403, 'notAdmin');
    assert.equal((await api(t, 'GET', '/api/team/domains', who.admin)).statusCode, 200);
    expectError(await api(t, 'GET', '/api/team/domains', 'not-a-token'), 401);
  });
});
