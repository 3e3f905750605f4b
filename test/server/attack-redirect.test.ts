import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { safeReturnUrl } from '../../src/contract/return-url';
import { DOT_SEGMENT_CASES, isEvil, RETURN_URL_CASES, type ReturnUrlCase } from '../support/attack-inputs';
import { signInAtProvider } from '../support/idp';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
let origin: string;
before(async () => {
  t = await createTestApp({ LOGIN_ADDRESS_LIMIT: '10000' });
  origin = new URL(t.config.publicUrl).origin;
});
after(() => t.close());

const cookieOf = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((c) => c.name === name)?.value;

// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f]/;

/**
 * Where a browser would go for this Location header: the WHATWG URL parser is what browsers use, so it
 * reads `\` as `/` and drops tabs and newlines exactly as they do.
 */
function assertStaysOnOrigin(location: string | undefined, label: string) {
  assert.ok(location, `${label}: no Location`);
  assert.equal(new URL(location, t.config.publicUrl).origin, origin, `${label}: Location ${location}`);
  // Stricter than the browser's reading, for every other client that may follow the header.
  assert.ok(location.startsWith('/') && !location.startsWith('//'), `${label}: ${location}`);
  assert.ok(!location.includes('\\'), `${label}: backslash in ${location}`);
  assert.ok(!CONTROL_OR_SPACE.test(location), `${label}: control or space in ${JSON.stringify(location)}`);
  assert.ok(!isEvil(new URL(location, t.config.publicUrl).href), `${label}: ${location}`);
}

/** A browser's anonymous anti-forgery cookie, as the sign-in page hands it out. */
async function anonymousXsrf(): Promise<string> {
  const page = await t.app.inject({ method: 'GET', url: '/login/acme' });
  const value = cookieOf(page, 'XSRF-TOKEN');
  assert.ok(value);
  return value;
}

/** Each value as a provider sign-in's returnUrl (every provider kind), followed to the final Location. */
async function roundTrips(cases: readonly ReturnUrlCase[]): Promise<void> {
  const xsrf = await anonymousXsrf();
  const landed = new Map<string, string>();
  // Each provider kind with a team that has it and a stand-in account that signs in there.
  const providers = [
    { kind: 'google', team: 'acme', account: 'ada' },
    { kind: 'azure', team: 'umbrella', account: 'dan' },
    { kind: 'auth0', team: 'acme', account: 'ada' },
  ] as const;
  for (const { kind, team, account } of providers) {
    for (const { value, trick } of cases) {
      const label = `${kind} ${trick} ${JSON.stringify(value)}`;
      const start = await t.app.inject({
        method: 'POST',
        url: `/account/${kind}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `XSRF-TOKEN=${xsrf}` },
        payload: new URLSearchParams({
          __RequestVerificationToken: xsrf,
          teamName: team,
          returnUrl: value,
        }).toString(),
      });
      if (value.includes('\u0000')) {
        // The server refuses U+0000 in any field before the route runs (PostgreSQL text cannot hold it):
        // no redirect at all, so nothing to follow.
        assert.equal(start.statusCode, 400, `${label}: ${start.body}`);
        assert.equal(start.headers.location, undefined, label);
        continue;
      }
      assert.equal(start.statusCode, 303, `${label}: ${start.body}`);
      const authorize = new URL(String(start.headers.location));
      // The provider hop goes to the configured provider, never to anything the caller chose.
      assert.ok(!authorize.href.includes('evil'), `${label}: ${authorize.href}`);
      const browser = cookieOf(start, 'acct_oauth');
      assert.ok(browser, label);
      const back = await signInAtProvider(authorize.href, account, `${t.config.publicUrl}/account/callback/`);
      const callback = await t.app.inject({
        method: 'GET',
        url: `${back.pathname}${back.search}`,
        headers: { cookie: `acct_oauth=${browser}` },
      });
      assert.equal(callback.statusCode, 303, `${label}: ${callback.body}`);
      assert.ok(cookieOf(callback, 'acct_session'), `${label}: not signed in`);
      const location = String(callback.headers.location);
      assertStaysOnOrigin(location, label);
      landed.set(value, location);
    }
  }
  // Values that only ever name a path of our own may land on it (re-serialised); the rest land on '/'.
  for (const [value, location] of landed) {
    if (location !== '/') assert.equal(location, safeReturnUrl(value, origin), JSON.stringify(value));
  }
}

describe('open redirect through the provider returnUrl', () => {
  it(`has at least 30 hostile values`, () => {
    assert.ok(RETURN_URL_CASES.length >= 30, String(RETURN_URL_CASES.length));
  });

  it('never sends the browser off the origin after a full provider round trip', async () => {
    await roundTrips(RETURN_URL_CASES);
  });

  it('never sends the browser off the origin for dot segments that collapse into //host', async () => {
    await roundTrips(DOT_SEGMENT_CASES);
  });

  it('keeps a plain same-origin returnUrl (so the hostile ones above were refused, not ignored)', async () => {
    const xsrf = await anonymousXsrf();
    const start = await t.app.inject({
      method: 'POST',
      url: '/account/google',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `XSRF-TOKEN=${xsrf}` },
      payload: new URLSearchParams({
        __RequestVerificationToken: xsrf,
        teamName: 'acme',
        returnUrl: '/manage/qr?x=1#top',
      }).toString(),
    });
    const back = await signInAtProvider(
      String(start.headers.location),
      'ada',
      `${t.config.publicUrl}/account/callback/`,
    );
    const callback = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: `acct_oauth=${cookieOf(start, 'acct_oauth')}` },
    });
    assert.equal(callback.headers.location, '/manage/qr?x=1#top');
  });
});

describe('the ReturnUrl rule itself (shared by the sign-in screen and the server)', () => {
  it('maps every table value to null or a path on the origin', () => {
    for (const { value, trick } of RETURN_URL_CASES) {
      const result = safeReturnUrl(value, origin);
      if (result !== null) assertStaysOnOrigin(result, trick);
    }
  });

  it('maps dot segments to null or a path on the origin', () => {
    for (const { value, trick } of DOT_SEGMENT_CASES) {
      const result = safeReturnUrl(value, origin);
      if (result !== null) assertStaysOnOrigin(result, trick);
    }
  });

  it('holds for generated values built from slashes, encodings, spaces and look-alikes', () => {
    const pieces = [
      '/',
      '\\',
      '//',
      '%2f',
      '%2F',
      '%5c',
      '%252f',
      '%09',
      '%0a',
      '\t',
      '\n',
      '\r',
      ' ',
      '\u00a0',
      '\uff0f',
      '\u2215',
      '\u2044',
      '\u29f8',
      '\uff3c',
      '@',
      ':',
      '.',
      '..',
      '?',
      '#',
      'evil.test',
      'https:',
      'javascript:',
      'manage',
      '\u202e',
      '\u0000',
    ];
    const value = fc
      .array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 8 })
      .map((parts) => parts.join(''));
    let runs = 0;
    fc.assert(
      fc.property(value, (candidate) => {
        runs++;
        const result = safeReturnUrl(candidate, origin);
        if (result === null) return;
        assertStaysOnOrigin(result, JSON.stringify(candidate));
        // Checked again, the answer is unchanged (or refused as too short): it is never decoded further.
        const again = safeReturnUrl(result, origin);
        if (again !== null) assert.equal(again, result, JSON.stringify(candidate));
      }),
      { seed: 11, numRuns: 5000 },
    );
    assert.equal(runs >= 5000, true);
  });
});
