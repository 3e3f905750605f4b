import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RouteOptions } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import { createTestApp, registeredRouteOptions, tokenFor, type TestApp } from '../support/test-server';

/**
 * Every route answers through a response schema (src/contract/schemas/): Fastify then serialises each
 * answer by it, so no field it does not list goes out, and the schema is the contract the client's
 * types come from. The routes are collected from the app as it is built, so a route added later is
 * covered without touching this file. (That the statuses routes really answer are all listed is checked
 * by every server test: see createTestApp.)
 */

type Schema = Record<string, unknown>;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const nameOf = (route: RouteOptions) => `${[route.method].flat().join(',')} ${route.url}`;
const responseOf = (route: RouteOptions) =>
  (route.schema as { response?: Record<string, Schema> } | undefined)?.response;

/** The statuses the plugins may answer for a route, from what it declares (schemas/common.ts, errors). */
function pluginStatuses(route: RouteOptions): number[] {
  const statuses = [500];
  if (!route.config?.page) statuses.push(400);
  if ([route.method].flat().some((method) => UNSAFE.has(method))) statuses.push(403, 413, 415);
  if (route.config?.auth === 'bearer') statuses.push(401);
  // A directory's token: 401 without a live one, 403 while its team is disabled.
  if (route.config?.auth === 'directory') statuses.push(401, 403);
  if (route.config?.auth === 'session') {
    const signIn = route.config.signIn;
    if (signIn) statuses.push(303);
    if (!signIn || signIn.pagesOnly) statuses.push(401);
  }
  return statuses;
}

/** Where a schema lets a value through unlisted: an object with no properties named, `{}`, `true`. */
function openings(schema: unknown, at: string): string[] {
  if (schema === true || (typeof schema === 'object' && schema !== null && Object.keys(schema).length === 0))
    return [`${at}: accepts anything`];
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Schema;
  const found: string[] = [];
  if (node.type === 'object') {
    if (node.additionalProperties === true) found.push(`${at}: additionalProperties: true`);
    if (!node.properties && !node.patternProperties) found.push(`${at}: an object with no properties named`);
  }
  const children: Array<[string, unknown]> = [
    ...Object.entries((node.properties ?? {}) as Schema).map(([key, value]): [string, unknown] => [
      `.${key}`,
      value,
    ]),
    ...Object.entries((node.patternProperties ?? {}) as Schema).map(([key, value]): [string, unknown] => [
      `[${key}]`,
      value,
    ]),
    ...(node.items ? [['[]', node.items] as [string, unknown]] : []),
    ...[node.anyOf, node.oneOf, node.allOf]
      .filter(Array.isArray)
      .flatMap((list: unknown[]) => list.map((value, i): [string, unknown] => [`|${i}`, value])),
  ];
  for (const [path, child] of children) found.push(...openings(child, `${at}${path}`));
  return found;
}

describe('every route answers through a response schema', () => {
  let routes: RouteOptions[];
  before(async () => {
    routes = await registeredRouteOptions();
  });

  it('has a response schema on every registered route', () => {
    assert.ok(routes.length >= 30, `routes collected (${routes.length})`);
    const without = routes.filter((route) => Object.keys(responseOf(route) ?? {}).length === 0).map(nameOf);
    assert.deepEqual(without, [], `routes without schema.response:\n${without.join('\n')}`);
  });

  it('lists the statuses the plugins answer for the route (body type, anti-forgery, auth, errors)', () => {
    const missing = routes.flatMap((route) => {
      const response = responseOf(route) ?? {};
      return pluginStatuses(route)
        .filter((status) => !(String(status) in response))
        .map((status) => `${nameOf(route)}: no ${status}`);
    });
    assert.deepEqual(missing, [], `\n${missing.join('\n')}`);
  });

  it('names every field an answer may carry (no open object, no schema that takes anything)', () => {
    const open = routes.flatMap((route) =>
      Object.entries(responseOf(route) ?? {})
        .filter(([, schema]) => schema.type !== 'string' && schema.type !== 'null')
        .flatMap(([status, schema]) => openings(schema, `${nameOf(route)} ${status}`)),
    );
    assert.deepEqual(open, [], `\n${open.join('\n')}`);
  });
});

/** Every key of `value` (deeply) is a property its schema names: what the serialiser should leave. */
function unlisted(value: unknown, schema: Schema, at = ''): string[] {
  if (Array.isArray(value))
    return value.flatMap((item, i) => unlisted(item, schema.items as Schema, `${at}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  if (schema.patternProperties) return [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  return Object.entries(value).flatMap(([key, item]) =>
    key in properties ? unlisted(item, properties[key]!, `${at}.${key}`) : [`${at}.${key}`],
  );
}

describe('answers carry only what their schema lists', () => {
  let t: TestApp;
  let routes: Map<string, RouteOptions>;
  const keyFile = join(tmpdir(), `acct-keys-${process.pid}-${Date.now()}.json`);
  before(async () => {
    // A key file as another tool may write it: beside the key's own members, a flag and a note that are
    // nobody's business. The JWKS answer must publish the public key's members only.
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const signingKey = { ...(await exportJWK(privateKey)), ext: true, note: 'rotated by ops, vault id 42' };
    const hmacSecret = Buffer.alloc(32, 7).toString('base64url');
    writeFileSync(keyFile, JSON.stringify({ signingKey, hmacSecret }), { mode: 0o600 });
    t = await createTestApp({ SIGNING_KEY_FILE: keyFile });
    routes = new Map((await registeredRouteOptions()).map((route) => [nameOf(route), route]));
  });
  after(async () => {
    await t.close();
    rmSync(keyFile, { force: true });
  });

  it('publishes only the public key members, whatever else the key file holds', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/jwks' });
    assert.equal(response.statusCode, 200);
    const [key] = response.json().keys as Array<Record<string, unknown>>;
    assert.deepEqual(Object.keys(key!).sort(), ['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    assert.ok(!response.body.includes('vault'), 'the key file note went out');
  });

  it('answers the busiest and the most personal calls with their schema fields, all of them', async () => {
    const { accessToken, cookie, xsrf } = await tokenFor(t.app, 'ada@acme.test', 'acme');
    const bearer = { authorization: `Bearer ${accessToken}` };
    const calls = [
      { route: 'GET /connect/userinfo', url: '/connect/userinfo', headers: bearer },
      { route: 'GET /api/user/password', url: '/api/user/password', headers: bearer },
      { route: 'GET /policy/raw', url: '/policy/raw?showinternal=true', headers: bearer },
      { route: 'GET /api/team/public/:team', url: '/api/team/public/acme', headers: {} },
      {
        route: 'GET /.well-known/openid-configuration',
        url: '/.well-known/openid-configuration',
        headers: {},
      },
      { route: 'POST /account/check', url: '/account/check', headers: { cookie, 'x-xsrf-token': xsrf } },
    ];
    for (const call of calls) {
      const [method] = call.route.split(' ') as ['GET' | 'POST'];
      const response = await t.app.inject({ method, url: call.url, headers: call.headers });
      assert.equal(response.statusCode, 200, `${call.route}: ${response.body}`);
      const schema = responseOf(routes.get(call.route)!)?.['200'];
      assert.ok(schema, `${call.route}: no 200 schema`);
      const body: unknown = response.json();
      assert.deepEqual(unlisted(body, schema), [], `${call.route} answered fields its schema does not list`);
      for (const field of (schema.required ?? []) as string[])
        assert.ok(field in (body as object), `${call.route}: ${field} is missing`);
    }
  });
});
