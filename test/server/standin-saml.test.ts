/**
 * The demo's stand-in SAML provider (demo/server/standin/saml.ts) with the server started in demo mode,
 * as `npm start` runs it: initrode's seeded connection points at it, and a whole sign-in goes through
 * it — the portal's start and its redirect, the stand-in's sign-in page, its auto-posting answer, the
 * portal's ACS — making a new member with the connection's permissions and the provider's groups. An
 * address outside the team's domain is refused; the stand-in answers no request but the portal's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { DEMO_SAML_CONNECTION } from '../../demo/server/db/seed';
import type { SamlStandIn } from '../../demo/server/standin/saml';
import { startTestServer, type TestServer } from '../support/test-server';

let t: TestServer;
let standIn: SamlStandIn;
before(async () => {
  t = await startTestServer();
  standIn = t.server.samlStandIn!;
});
after(() => t.close());

const inject = (options: InjectOptions) => t.server.app.inject(options);
const cookieOf = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((c) => c.name === name && c.value)?.value;
const unescape = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(+code));

/** A page's form: where it posts and its named fields with their values. */
function formOf(html: string) {
  const form = /<form method="post" action="([^"]*)">/.exec(html);
  assert.ok(form, 'a form that posts');
  const fields = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields.set(name!, unescape(value!));
  return { action: unescape(form[1]!), fields };
}

/** The portal's start and begin for `email`: the stand-in's address, and the browser's cookie. */
async function begin(email: string) {
  const started = await inject({
    method: 'POST',
    url: '/account/sso/start',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ teamName: 'initrode', email, returnUrl: '/manage' }),
  });
  assert.equal(started.statusCode, 200, started.body);
  const location = new URL((started.json() as { location: string }).location);
  const begun = await inject({ method: 'GET', url: `${location.pathname}${location.search}` });
  assert.equal(begun.statusCode, 303, begun.body);
  const cookie = cookieOf(begun, 'acct_sso');
  assert.ok(cookie, 'the request is bound to the browser');
  return { redirect: begun.headers.location as string, cookie };
}

/** A whole sign-in as `login` on the stand-in's page, up to the portal's answer to the ACS post. */
async function signIn(email: string, login: string) {
  const { redirect, cookie } = await begin(email);
  assert.ok(redirect.startsWith(standIn.ssoUrl), redirect);
  const page = await fetch(redirect);
  const signInForm = formOf(await page.text());
  signInForm.fields.set('login', login);
  const answered = await fetch(new URL(signInForm.action, standIn.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: signInForm.fields,
  });
  assert.equal(answered.status, 200);
  const answer = formOf(await answered.text());
  return inject({
    method: 'POST',
    url: new URL(answer.action).pathname,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: standIn.url,
      cookie: `acct_sso=${cookie}`,
    },
    payload: answer.fields.toString(),
  });
}

describe('the demo’s stand-in SAML provider', () => {
  it('is where initrode.test signs in: the team’s public details list the domain', async () => {
    const details = await inject({ method: 'GET', url: '/api/team/public/initrode' });
    assert.deepEqual(details.json().ssoDomains, [{ domain: DEMO_SAML_CONNECTION.domain, required: false }]);
    const connection = await t.server.db.kysely
      .selectFrom('team_connections')
      .selectAll()
      .where('id', '=', DEMO_SAML_CONNECTION.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [connection.sso_url, connection.idp_entity_id, JSON.parse(connection.certificates)],
      [standIn.ssoUrl, standIn.entityId, [standIn.cert]],
    );
  });

  it('shows a plain sign-in form under a strict CSP: a labelled Account field and the people', async () => {
    const { redirect } = await begin('michael@initrode.test');
    const page = await fetch(redirect);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /^default-src 'none';/);
    const html = await page.text();
    assert.match(html, /<label for="login">Account<\/label><input id="login" name="login"/);
    assert.match(html, /<code>michael<\/code> — Michael Bolton, michael@initrode\.test \(Engineering\)/);
    assert.doesNotMatch(html, /<script|<link|<img/, 'no script and nothing loaded');
  });

  it('signs michael in as a new member, with the connection’s permissions and his groups', async () => {
    const answer = await signIn('michael@initrode.test', 'michael');
    assert.equal(answer.statusCode, 303, answer.body);
    assert.equal(answer.headers.location, '/manage');
    assert.ok(cookieOf(answer, 'acct_session'), 'a session');
    const db = t.server.db.kysely;
    const michael = await db
      .selectFrom('users')
      .innerJoin('teams', 'teams.id', 'users.team_id')
      .select(['users.id', 'users.name', 'users.password_hash'])
      .where('teams.name', '=', 'initrode')
      .where('users.email', '=', 'michael@initrode.test')
      .executeTakeFirstOrThrow();
    assert.deepEqual([michael.name, michael.password_hash], ['Michael Bolton', null]);
    assert.deepEqual([...(await t.server.app.services.repos.users.permissionsOf(michael.id))], ['EDITOR']);
    const groups = await db
      .selectFrom('group_members')
      .innerJoin('groups', 'groups.id', 'group_members.group_id')
      .select('groups.name')
      .where('group_members.user_id', '=', michael.id)
      .execute();
    assert.deepEqual(
      groups.map((g) => g.name),
      ['Engineering'],
    );
  });

  it('answers with an auto-posting form: a nonce’d script, and a focused Continue button', async () => {
    const { redirect } = await begin('samir@initrode.test');
    const signInForm = formOf(await (await fetch(redirect)).text());
    signInForm.fields.set('login', 'samir');
    const answered = await fetch(new URL(signInForm.action, standIn.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: signInForm.fields,
    });
    const csp = answered.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    const html = await answered.text();
    assert.ok(html.includes(`<script nonce="${nonce}">document.forms[0].submit();</script>`));
    assert.match(html, /<button type="submit" autofocus>Continue<\/button>/);
    const { action, fields } = formOf(html);
    assert.equal(action, `${t.url}/saml/${DEMO_SAML_CONNECTION.id}/acs`);
    const xml = Buffer.from(fields.get('SAMLResponse')!, 'base64').toString('utf8');
    assert.match(xml, /<saml:NameID Format="[^"]+emailAddress">samir@initrode\.test<\/saml:NameID>/);
    assert.match(
      xml,
      /<saml:Assertion [^>]*><saml:Issuer>[^<]+<\/saml:Issuer><ds:Signature/,
      'assertion signed',
    );
  });

  it('refuses an address outside the team’s domain, and makes nobody', async () => {
    const answer = await signIn('someone@initrode.test', 'eve');
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, '/login/initrode?Error=SsoFailed');
    assert.equal(cookieOf(answer, 'acct_session'), undefined);
    const eve = await t.server.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'eve@outside.test')
      .executeTakeFirst();
    assert.equal(eve, undefined);
  });

  it('answers no request but the portal’s', async () => {
    for (const query of ['', '?SAMLRequest=bm90IGEgcmVxdWVzdA%3D%3D']) {
      const response = await fetch(`${standIn.ssoUrl}${query}`);
      assert.equal(response.status, 400);
    }
  });
});
