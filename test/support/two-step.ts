import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { tokenFor, type TestApp, type TestServer } from './test-server';
import { proofFor } from './proof';
import type { Proof } from '../../src/contract/schemas/challenge';

/** A new member of a seeded team with the demo password, made directly in the database. */
export async function makeUser(
  t: TestApp,
  email: string,
  team = 'acme',
  password: string | null = DEMO_PASSWORD,
): Promise<string> {
  const db = t.db.kysely;
  const row = await db.selectFrom('teams').select('id').where('name', '=', team).executeTakeFirstOrThrow();
  const id = randomUUID();
  await db
    .insertInto('users')
    .values({
      id,
      team_id: row.id,
      email,
      name: email.split('@')[0]!,
      password_hash: password === null ? null : await t.app.services.hasher.hash(password),
      password_changed_at: null,
      locked: 0,
      language: null,
      created_at: t.clock.now(),
      disabled_at: null,
      last_sign_in_at: null,
    })
    .execute();
  return id;
}

/** The code the authenticator app shows for `secret` at the test server's time (plus `offsetMs`). */
export function codeFor(t: TestApp, secret: string, offsetMs = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now() + offsetMs });
}

/** The `Cookie` header that carries every cookie an answer set, and its XSRF token. */
export function cookiesFrom(response: LightMyRequestResponse): { cookie: string; xsrf: string } {
  const cookies = response.cookies.filter((c) => c.value !== '');
  return {
    cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '),
    xsrf: cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '',
  };
}

/**
 * A password sign-in as the screen makes it: once the account or the address shows failures the server
 * asks for a solved proof-of-work challenge, and the screen solves one and sends again.
 */
export async function login(t: TestApp, email: string, password = DEMO_PASSWORD, team = 'acme') {
  const send = (proof?: Proof) =>
    t.app.inject({
      method: 'POST',
      url: '/account/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ teamName: team, email, password, ...(proof ? { proof } : {}) }),
    });
  const first = await send();
  if (first.statusCode !== 403 || first.json<{ code?: string }>().code !== 'challengeRequired') return first;
  return send(await proofFor(t.app));
}

/** A JSON call with a bearer token. */
export function bearer(t: TestApp, token: string, method: string, url: string, body?: unknown) {
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** A JSON call with the cookies (and XSRF token) of a pending sign-in. */
export function withCookies(t: TestApp, jar: { cookie: string; xsrf: string }, url: string, body?: unknown) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      cookie: jar.cookie,
      'x-xsrf-token': jar.xsrf,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** A running test server as the helpers here take it (its app, database and clock). */
export function appOf(server: TestServer): TestApp {
  const { app, db, standIns, pwnedStandIn } = server.server;
  return { ...server, app, db, standIns, pwnedStandIn };
}

/**
 * A new member with the demo password and the authenticator app set up through the API: their token,
 * the app's key and the ten recovery codes. The clock moves on a step, so the code the enrolment used
 * is not the one a sign-in computes next.
 */
export async function memberWithApp(t: TestApp, email: string, team = 'acme') {
  await makeUser(t, email, team);
  const { accessToken } = await tokenFor(t.app, email, team);
  const key = await bearer(t, accessToken, 'POST', '/api/user/two-step/totp');
  const { secret } = key.json() as { secret: string };
  const confirm = await bearer(t, accessToken, 'POST', '/api/user/two-step/totp/confirm', {
    code: codeFor(t, secret),
  });
  assert.equal(confirm.statusCode, 200, confirm.body);
  t.clock.advance(30_000);
  return {
    accessToken,
    secret,
    recoveryCodes: (confirm.json() as { recoveryCodes: string[] }).recoveryCodes,
  };
}
