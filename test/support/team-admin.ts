import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { memberTerms, sortKey } from '../../demo/server/db/member-terms';
import type { Permission } from '../../src/contract/permissions';
import { tokenFor, type TestApp } from './test-server';

/**
 * The callers of the authorisation matrix every admin route is tested with (design §7): nobody, a
 * member of acme who is not an admin (bob, EDITOR), another team's admin (carol, globex ADMIN), an
 * ADMIN of acme who is not an owner (made here), and acme's OWNER (ada).
 */
export interface Callers {
  member: string;
  otherAdmin: string;
  admin: string;
  owner: string;
  /** The ids of acme's seeded users by e-mail, and of the ADMIN made here. */
  ids: Record<string, string>;
}

/**
 * A team of the tests' own (password sign-in, plus e-mail codes if asked), made once per database:
 * false when it was already there.
 */
export async function addTeam(
  t: Pick<TestApp, 'db' | 'clock'>,
  team: { name: string; displayName: string; emailCode?: boolean },
): Promise<boolean> {
  const made = await t.db.kysely
    .insertInto('teams')
    .values({
      id: randomUUID(),
      name: team.name,
      display_name: team.displayName,
      disabled: 0,
      local_enabled: 1,
      google_enabled: 0,
      azure_enabled: 0,
      auth0_enabled: 0,
      auth0_display_name: null,
      brand: null,
      created_at: t.clock.now(),
      email_code_enabled: team.emailCode ? 1 : 0,
    })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(made.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Add a user to a team directly in the database (as a migration or an import would), with a password-less account. */
export async function addUser(
  t: Pick<TestApp, 'db' | 'clock'>,
  user: { email: string; name: string; permissions: Permission[]; team?: string },
): Promise<string> {
  const db = t.db.kysely;
  const team = await db
    .selectFrom('teams')
    .select('id')
    .where('name', '=', user.team ?? 'acme')
    .executeTakeFirstOrThrow();
  const id = randomUUID();
  await db
    .insertInto('users')
    .values({
      id,
      team_id: team.id,
      email: user.email,
      name: user.name,
      name_key: sortKey(user.name),
      password_hash: null,
      password_changed_at: null,
      locked: 0,
      language: null,
      created_at: t.clock.now(),
    })
    .execute();
  for (const permission of user.permissions)
    await db.insertInto('user_permissions').values({ user_id: id, permission }).execute();
  for (const { term, shadow } of memberTerms(user.name, user.email))
    await db.insertInto('member_terms').values({ team_id: team.id, term, user_id: id, shadow }).execute();
  return id;
}

/**
 * Tokens for each caller, issued now (call again after moving the clock: a token lives an hour). The
 * ADMIN, alan@acme.test, is added the first time.
 */
export async function callers(t: TestApp): Promise<Callers> {
  const alan = await t.db.kysely
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'alan@acme.test')
    .executeTakeFirst();
  if (!alan) await addUser(t, { email: 'alan@acme.test', name: 'Alan Admin', permissions: ['ADMIN'] });
  const users = await t.db.kysely.selectFrom('users').select(['id', 'email']).execute();
  return {
    member: (await tokenFor(t.app, 'bob@acme.test')).accessToken,
    otherAdmin: (await tokenFor(t.app, 'carol@globex.test')).accessToken,
    admin: (await tokenFor(t.app, 'alan@acme.test')).accessToken,
    owner: (await tokenFor(t.app, 'ada@acme.test')).accessToken,
    ids: Object.fromEntries(users.map((u) => [u.email, u.id])),
  };
}

/** A JSON call as an element across origins makes it: a bearer token, no cookies. */
export function api(
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    payload: body !== undefined ? JSON.stringify(body) : undefined,
  });
}

/** Assert an answer's status and, for an error, its code (and field). */
export function expectError(response: LightMyRequestResponse, status: number, code?: string, field?: string) {
  assert.equal(response.statusCode, status, response.body);
  const body = response.json() as { message?: unknown; code?: unknown; field?: unknown };
  assert.equal(typeof body.message, 'string', response.body);
  if (code !== undefined) assert.equal(body.code, code, response.body);
  if (field !== undefined) assert.equal(body.field, field, response.body);
}
