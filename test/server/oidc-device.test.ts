/**
 * The OpenID Provider's device flow (RFC 8628): a device asks for a user code with its client id, the
 * user types the code at the verification page, signs in through the portal when needed, sees which
 * app asks and confirms; the device's polling then gets tokens. The QR code login of the spec keeps
 * its own grant at the same token endpoint.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { InjectBrowser } from '../support/inject-browser';
import { createTestApp, sessionFor, tokenFor, type TestApp } from '../support/test-server';

const DEVICE_CLIENT = 'test-tv-app';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const ISSUER = 'http://localhost:8080';

describe('the device flow (RFC 8628)', () => {
  let t: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'oidc-device-'));
  before(async () => {
    const clients = join(dir, 'clients.json');
    writeFileSync(
      clients,
      JSON.stringify([
        {
          client_id: DEVICE_CLIENT,
          client_name: 'Meeting-room screen',
          grant_types: [DEVICE_GRANT, 'refresh_token'],
          token_endpoint_auth_method: 'none',
        },
      ]),
    );
    t = await createTestApp({ OIDC_CLIENTS_FILE: clients });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const form = (url: string, body: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost:8080' },
      payload: new URLSearchParams(body).toString(),
    });

  /** The device's request, at the endpoint the issuer's discovery names. */
  async function startOnDevice() {
    const discovery = (
      await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })
    ).json();
    const endpoint = new URL(discovery.device_authorization_endpoint as string);
    assert.equal(endpoint.href, `${ISSUER}/oidc/device/auth`);
    const response = await form(endpoint.pathname, {
      client_id: DEVICE_CLIENT,
      scope: 'openid profile email',
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as {
      device_code: string;
      user_code: string;
      verification_uri: string;
      verification_uri_complete: string;
      interval: number;
    };
  }

  const poll = (deviceCode: string) =>
    form('/connect/token', { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: DEVICE_CLIENT });

  /** The hidden anti-forgery field of a page's form. */
  const xsrfOf = (html: string) => /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

  it('signs a user in on a device: code typed, sign-in, confirmation, tokens', async () => {
    const device = await startOnDevice();
    assert.match(device.user_code, /^[A-Z]{4}-[A-Z]{4}$/);
    assert.equal(device.verification_uri, `${ISSUER}/oidc/device`);
    // Before the user confirms, the device is told to wait.
    assert.equal((await poll(device.device_code)).json().error, 'authorization_pending');

    // The user opens the verification page, not signed in yet.
    const browser = new InjectBrowser(t.app, ISSUER);
    const page = await browser.get('/oidc/device', { 'accept-language': 'de' });
    assert.equal(page.statusCode, 200);
    assert.match(
      String(page.headers['content-security-policy']),
      /default-src 'none'; style-src 'self'; form-action 'self'/,
    );
    assert.match(page.body, /<label for="user_code">Code<\/label>/);
    assert.match(page.body, /Auf einem Gerät anmelden/);
    assert.doesNotMatch(page.body, /<script|onfocus|<style/);

    // The code, typed in lower case: the provider asks for the sign-in first.
    const typed = await browser.post('/oidc/device', {
      xsrf: xsrfOf(page.body),
      user_code: device.user_code.toLowerCase(),
    });
    assert.equal(typed.statusCode, 200);
    assert.match(typed.body, /Meeting-room screen/, 'names the app that asks');
    assert.match(typed.body, new RegExp(device.user_code));
    const confirmed = await browser.post('/oidc/device', {
      xsrf: xsrfOf(typed.body),
      user_code: device.user_code,
      confirm: 'yes',
    });
    assert.equal(confirmed.statusCode, 303);
    const toSignIn = await browser.follow(String(confirmed.headers.location));
    assert.equal(toSignIn.location?.pathname, '/login/team', 'the portal signs the user in');
    const returnUrl = toSignIn.location!.searchParams.get('ReturnUrl')!;
    assert.match(returnUrl, /^\/oidc\/interaction\//);

    // Signed in on the portal, the browser comes back to the interaction and on to the success page.
    const ada = await sessionFor(t.app, 'ada@acme.test');
    for (const part of ada.cookie.split('; ')) {
      const [name, value] = part.split('=');
      browser.jar.set(name!, value!);
    }
    const done = await browser.follow(returnUrl);
    assert.equal(done.response.statusCode, 200, done.visited.join(' → '));
    assert.match(done.response.body, /Your device is signed in/);
    assert.match(done.response.body, /Meeting-room screen/);

    const tokens = await poll(device.device_code);
    assert.equal(tokens.statusCode, 200, tokens.body);
    const { id_token: idToken, access_token: accessToken } = tokens.json();
    const keys = createLocalJWKSet(
      (await t.app.inject({ method: 'GET', url: '/.well-known/jwks' })).json() as JSONWebKeySet,
    );
    const { payload } = await jwtVerify(idToken, keys, { issuer: ISSUER, audience: DEVICE_CLIENT });
    assert.equal(payload.email, 'ada@acme.test');
    // The access token is one every bearer route takes.
    const userinfo = await t.app.inject({
      method: 'GET',
      url: '/connect/userinfo',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    assert.equal(userinfo.statusCode, 200);
    assert.equal(userinfo.json().sub, payload.sub);
    // The device code is single use.
    assert.equal((await poll(device.device_code)).json().error, 'invalid_grant');
  });

  it('fills the code in from the complete address, without a script', async () => {
    const device = await startOnDevice();
    const page = await new InjectBrowser(t.app, ISSUER).get(
      new URL(device.verification_uri_complete).pathname + new URL(device.verification_uri_complete).search,
    );
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`value="${device.user_code}"`));
    assert.doesNotMatch(page.body, /<script/);
  });

  it('says at the field when a code is wrong, and a cancelled sign-in is denied to the device', async () => {
    const browser = new InjectBrowser(t.app, ISSUER, (await sessionFor(t.app, 'ada@acme.test')).cookie);
    const page = await browser.get('/oidc/device');
    const wrong = await browser.post('/oidc/device', { xsrf: xsrfOf(page.body), user_code: 'BCDF-GHJK' });
    assert.match(wrong.body, /aria-invalid="true" aria-describedby="code-problem"/);
    assert.match(wrong.body, /<p id="code-problem" role="alert">This code is not known/);

    const device = await startOnDevice();
    const asked = await browser.post('/oidc/device', {
      xsrf: xsrfOf(wrong.body),
      user_code: device.user_code,
    });
    const cancelled = await browser.post('/oidc/device', {
      xsrf: xsrfOf(asked.body),
      user_code: device.user_code,
      abort: 'yes',
    });
    assert.match(cancelled.body, /Signing in on the device was cancelled/);
    assert.equal((await poll(device.device_code)).json().error, 'access_denied');
  });

  // Last: every code posted in this file came from the same address.
  it('stops an address that keeps trying codes', async () => {
    const browser = new InjectBrowser(t.app, ISSUER);
    let last;
    for (let attempt = 0; attempt < 11; attempt++) {
      const page = await browser.get('/oidc/device');
      last = await browser.post('/oidc/device', { xsrf: xsrfOf(page.body), user_code: 'BCDF-GHJK' });
    }
    assert.equal(last!.statusCode, 429);
    assert.ok(Number(last!.headers['retry-after']) > 0);
    assert.match(last!.body, /Too many attempts/);
  });

  it('keeps the QR code login’s grant for the mobile app at the same endpoint', async () => {
    const generated = await t.app.inject({
      method: 'POST',
      url: '/api/DeviceCode/generate',
      headers: { authorization: `Bearer ${(await tokenFor(t.app, 'ada@acme.test')).accessToken}` },
    });
    assert.equal(generated.statusCode, 200);
    const exchanged = await form('/connect/token', {
      grant_type: DEVICE_GRANT,
      device_code: generated.json().device_code,
      client_id: 'acct-mobile',
    });
    assert.equal(exchanged.statusCode, 200, exchanged.body);
    assert.ok(exchanged.json().access_token);
  });
});
