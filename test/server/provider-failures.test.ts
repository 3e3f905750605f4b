import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { signInAtProvider } from '../support/idp';
import { createTestApp, sessionFor, type TestApp } from '../support/test-server';

let t: TestApp;
before(async () => {
  t = await createTestApp({ LOGIN_ADDRESS_LIMIT: '10000' });
});
after(() => t.close());

const cookieOf = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((c) => c.name === name)?.value;

async function teamId(name: string) {
  return (
    await t.db.kysely.selectFrom('teams').select('id').where('name', '=', name).executeTakeFirstOrThrow()
  ).id;
}

/** Point a team's provider at another issuer for the length of `run`. */
async function withIssuer(
  team: string,
  kind: 'google' | 'azure' | 'auth0',
  issuer: string,
  run: () => Promise<void>,
) {
  const id = await teamId(team);
  const row = await t.db.kysely
    .selectFrom('team_providers')
    .select('issuer')
    .where('team_id', '=', id)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  await t.db.kysely
    .updateTable('team_providers')
    .set({ issuer })
    .where('team_id', '=', id)
    .where('kind', '=', kind)
    .execute();
  try {
    await run();
  } finally {
    await t.db.kysely
      .updateTable('team_providers')
      .set({ issuer: row.issuer })
      .where('team_id', '=', id)
      .where('kind', '=', kind)
      .execute();
  }
}

const startSignIn = (kind: string, teamName: string) =>
  t.app.inject({
    method: 'POST',
    url: `/account/${kind}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ teamName }).toString(),
  });

describe('an unreachable provider', () => {
  it('sends the browser back to the sign-in screen with Error=ProviderFailed, not a 500', async () => {
    // Nothing listens on port 1: the discovery document cannot be fetched.
    for (const issuer of ['http://127.0.0.1:1/', 'demo:nonexistent']) {
      await withIssuer('acme', 'google', issuer, async () => {
        const response = await startSignIn('google', 'acme');
        assert.equal(response.statusCode, 303, `${issuer}: ${response.body}`);
        assert.equal(response.headers.location, '/login/acme?Error=ProviderFailed');
        assert.ok(!cookieOf(response, 'acct_oauth'), 'no round trip cookie');
      });
    }
    const flows = await t.db.kysely.selectFrom('oauth_flows').select('state_hash').execute();
    assert.equal(flows.length, 0, 'no round trip was stored');
  });

  it('sends a linking user back to the manage area with Error=ProviderFailed', async () => {
    const ada = await sessionFor(t.app, 'ada@acme.test');
    await withIssuer('acme', 'auth0', 'http://127.0.0.1:1/', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/external/Auth0',
        headers: { cookie: ada.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ __RequestVerificationToken: ada.xsrf }).toString(),
      });
      assert.equal(response.statusCode, 303, response.body);
      assert.equal(response.headers.location, '/manage?Error=ProviderFailed');
    });
  });

  it('works again once the provider is back (the failed discovery is not cached)', async () => {
    await withIssuer('acme', 'google', 'http://127.0.0.1:1/', async () => {
      assert.equal(
        (await startSignIn('google', 'acme')).headers.location,
        '/login/acme?Error=ProviderFailed',
      );
    });
    const response = await startSignIn('google', 'acme');
    assert.equal(response.statusCode, 303);
    assert.match(String(response.headers.location), /^http:\/\/[^/]+\/.*response_type=code/);
  });
});

describe('two first sign-ins at once (link by e-mail)', () => {
  it('links the identity once and signs both in, never a 500', async () => {
    // Several rounds: the two callbacks interleave differently each time.
    for (let round = 0; round < 6; round++) {
      await t.db.kysely.deleteFrom('external_accounts').where('provider', '=', 'Auth0').execute();
      await raceOnce();
    }
  });
});

describe('resolving an identity twice at once', () => {
  it('links once; both calls get the user, none throws', async () => {
    const acme = await teamId('acme');
    const identity = {
      subject: 'race',
      email: 'ada@acme.test',
      emailVerified: true,
      name: null,
      tenant: null,
    };
    const { external } = t.app.services;
    const user = await t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'ada@acme.test')
      .executeTakeFirstOrThrow();
    for (let round = 0; round < 5; round++) {
      await t.db.kysely.deleteFrom('external_accounts').where('provider', '=', 'Auth0').execute();
      const ada = { ...identity, subject: `race-${round}` };
      const results = await Promise.all([
        external.resolveUser(acme, 'auth0', ada, true),
        external.resolveUser(acme, 'auth0', ada, true),
      ]);
      for (const result of results) {
        assert.equal(typeof result, 'object', `round ${round}: ${String(result)}`);
        assert.equal((result as { id: string }).id, user.id);
      }
      // Two different identities racing for one account: one links, the other is refused.
      await t.db.kysely.deleteFrom('external_accounts').where('provider', '=', 'Auth0').execute();
      const rivals = await Promise.all([
        external.resolveUser(acme, 'auth0', { ...ada, subject: `rival-a-${round}` }, true),
        external.resolveUser(acme, 'auth0', { ...ada, subject: `rival-b-${round}` }, true),
      ]);
      assert.deepEqual(
        rivals.map((r) => (typeof r === 'string' ? r : 'user')).sort(),
        ['UserAlreadyExists', 'user'],
        `round ${round}`,
      );
    }
  });
});

async function raceOnce() {
  {
    const starts = await Promise.all([startSignIn('auth0', 'acme'), startSignIn('auth0', 'acme')]);
    const backs = [];
    for (const started of starts) {
      assert.equal(started.statusCode, 303, started.body);
      const back = await signInAtProvider(
        String(started.headers.location),
        'ada',
        `${t.config.publicUrl}/account/callback/`,
      );
      backs.push({ back, browser: cookieOf(started, 'acct_oauth')! });
    }
    const answers = await Promise.all(
      backs.map(({ back, browser }) =>
        t.app.inject({
          method: 'GET',
          url: `${back.pathname}${back.search}`,
          headers: { cookie: `acct_oauth=${browser}` },
        }),
      ),
    );
    for (const answer of answers) {
      assert.equal(answer.statusCode, 303, answer.body);
      assert.equal(answer.headers.location, '/');
      assert.ok(cookieOf(answer, 'acct_session'));
    }
    const links = await t.db.kysely
      .selectFrom('external_accounts')
      .innerJoin('users', 'users.id', 'external_accounts.user_id')
      .select('external_accounts.id')
      .where('users.email', '=', 'ada@acme.test')
      .where('external_accounts.provider', '=', 'Auth0')
      .execute();
    assert.equal(links.length, 1);
  }
}
