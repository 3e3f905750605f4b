/**
 * The service provider side of a team's SAML connection (lib/saml.ts), driven by an independent
 * identity provider (samlify's, test/support/saml-idp.ts) signing real answers: what is accepted and
 * the claims read, and each answer refused with its reason — a signature that is missing, wrong or by
 * a certificate the connection does not hold, another audience, recipient or destination, an expired
 * assertion, a request this site did not send or already had answered (also on another node), a
 * replay, an unsolicited answer while that is off, an e-mail outside the verified domains or missing.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PRESET_MAPPINGS } from '../../src/contract/connections';
import { openDatabase } from '../../demo/server/db/connect';
import { createRepositories } from '../../demo/server/db/repositories';
import type { TeamConnectionsTable } from '../../demo/server/db/schema';
import { samlService, serviceProviderUrls, type SamlOutcome } from '../../demo/server/lib/saml';
import { signingPair, TestIdp } from '../support/saml-idp';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
let idp: TestIdp;
let acme: string;
before(async () => {
  t = await createTestApp();
  idp = new TestIdp();
  acme = (
    await t.db.kysely.selectFrom('teams').select('id').where('name', '=', 'acme').executeTakeFirstOrThrow()
  ).id;
});
after(() => t.close());

const saml = () => t.app.services.saml;

/** A SAML connection of acme to `provider` (signing with its certificate unless `certificates`). */
async function connection(
  provider = idp,
  changes: Partial<TeamConnectionsTable> = {},
): Promise<TeamConnectionsTable> {
  const now = t.clock.now();
  return t.app.services.repos.connections.create({
    id: randomUUID(),
    team_id: acme,
    protocol: 'saml',
    preset: 'saml',
    name: 'Acme IdP',
    idp_entity_id: provider.entityId,
    sso_url: provider.ssoUrl,
    certificates: JSON.stringify([provider.pair.cert]),
    mapping: JSON.stringify(PRESET_MAPPINGS.saml),
    idp_initiated: 0,
    enabled: 0,
    default_permissions: '[]',
    tested_at: null,
    created_at: now,
    updated_at: now,
    ...changes,
  });
}

const spOf = (c: TeamConnectionsTable) => serviceProviderUrls(t.config.publicUrl, c.id);

const ADA = {
  email: 'ada@acme.test',
  attributes: {
    email: 'Ada@Acme.test',
    givenName: 'Ada',
    familyName: 'Lovelace',
    groups: ['Engineering', 'Operations'],
  },
};

/** Start a test sign-in at the connection and answer it as `provider` does (bent by `tags`). */
async function signIn(
  c: TeamConnectionsTable,
  options: { provider?: TestIdp; user?: typeof ADA; tags?: Record<string, string> } = {},
) {
  const url = await saml().start(c, 'test');
  const sp = spOf(c);
  const provider = options.provider ?? idp;
  const request = await provider.requestId(url, sp);
  return provider.answer(sp, request, options.user ?? ADA, options.tags);
}

function refused(outcome: SamlOutcome, problem: string) {
  assert.equal(outcome.ok, false, 'refused');
  if (!outcome.ok) assert.equal(outcome.problem, problem, outcome.detail);
}

describe('SAML connections: the service provider', () => {
  it('sends an AuthnRequest to the provider and accepts its signed answer, with the mapped claims', async () => {
    const c = await connection();
    const url = new URL(await saml().start(c, 'test'));
    assert.equal(`${url.origin}${url.pathname}`, idp.ssoUrl);
    assert.ok(url.searchParams.get('SAMLRequest'));
    const request = await idp.requestId(url.href, spOf(c));
    const outcome = await saml().answer(c, await idp.answer(spOf(c), request, ADA));
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.detail);
    assert.equal(outcome.purpose, 'test');
    assert.deepEqual(
      { ...outcome.claims, attributes: undefined },
      {
        email: 'ada@acme.test',
        id: 'ada@acme.test',
        givenName: 'Ada',
        familyName: 'Lovelace',
        groups: ['Engineering', 'Operations'],
        attributes: undefined,
      },
    );
    assert.deepEqual(outcome.claims.attributes.groups, ['Engineering', 'Operations']);
  });

  it('refuses an answer signed by a key the connection does not hold', async () => {
    const c = await connection();
    const stranger = new TestIdp(signingPair(), 'idp'); // same names, another key
    refused(await saml().answer(c, await signIn(c, { provider: stranger })), 'signature');
  });

  it('refuses an assertion that is not signed itself (only the response around it is)', async () => {
    const c = await connection();
    const url = await saml().start(c, 'test');
    const request = await idp.requestId(url, spOf(c));
    const unsignedAssertion = await idp.answer(spOf(c), request, ADA, {}, { signAssertion: false });
    refused(await saml().answer(c, unsignedAssertion), 'signature');
  });

  it('refuses another audience, recipient or destination', async () => {
    const c = await connection();
    refused(
      await saml().answer(c, await signIn(c, { tags: { Audience: 'https://other.example/sp' } })),
      'audience',
    );
    refused(
      await saml().answer(c, await signIn(c, { tags: { SubjectRecipient: 'https://other.example/acs' } })),
      'recipient',
    );
    refused(
      await saml().answer(c, await signIn(c, { tags: { Destination: 'https://other.example/acs' } })),
      'destination',
    );
  });

  it('refuses an expired assertion, beyond a few seconds of clock difference', async () => {
    const c = await connection();
    const past = new Date(Date.now() - 60_000).toISOString();
    const tags = { ConditionsNotOnOrAfter: past, SubjectConfirmationDataNotOnOrAfter: past };
    refused(await saml().answer(c, await signIn(c, { tags })), 'clock');
    // Two seconds late is within the tolerated skew.
    const justNow = new Date(Date.now() - 2_000).toISOString();
    const late = { ConditionsNotOnOrAfter: justNow, SubjectConfirmationDataNotOnOrAfter: justNow };
    assert.ok((await saml().answer(c, await signIn(c, { tags: late }))).ok);
  });

  it('accepts each request’s answer once, and no answer to a request it did not send', async () => {
    const c = await connection();
    const request = await idp.requestId(await saml().start(c, 'test'), spOf(c));
    assert.ok((await saml().answer(c, await idp.answer(spOf(c), request, ADA))).ok);
    refused(await saml().answer(c, await idp.answer(spOf(c), request, ADA)), 'unknownRequest');
    refused(await saml().answer(c, await idp.answer(spOf(c), '_never-sent', ADA)), 'unknownRequest');
    // Another connection's request is not this one's.
    const d = await connection();
    const theirs = await idp.requestId(await saml().start(d, 'test'), spOf(d));
    refused(await saml().answer(c, await idp.answer(spOf(c), theirs, ADA)), 'unknownRequest');
  });

  it(
    'takes the answer on another node than the one that sent the request, once (PostgreSQL)',
    { skip: process.env.TEST_POSTGRES !== '1' && 'one node per SQLite file' },
    async () => {
      const c = await connection();
      const request = await idp.requestId(await saml().start(c, 'test'), spOf(c));
      // A second node: its own pool on the same database.
      const db = await openDatabase(t.config.databaseUrl);
      try {
        const other = samlService({
          repos: createRepositories(db),
          clock: t.clock,
          publicUrl: t.config.publicUrl,
        });
        const answer = await idp.answer(spOf(c), request, ADA);
        const both = await Promise.all([other.answer(c, answer), saml().answer(c, answer)]);
        assert.deepEqual(both.map((o) => o.ok).sort(), [false, true]);
      } finally {
        await db.close();
      }
    },
  );

  it('refuses unsolicited answers unless sign-in started at the provider is on, and replays always', async () => {
    const off = await connection();
    refused(await saml().answer(off, await idp.answer(spOf(off), null, ADA)), 'unsolicited');
    const on = await connection(idp, { idp_initiated: 1 });
    const answer = await idp.answer(spOf(on), null, ADA);
    const first = await saml().answer(on, answer);
    assert.ok(first.ok && first.purpose === 'signIn');
    refused(await saml().answer(on, answer), 'replay');
  });

  it('refuses an e-mail outside the team’s verified domains, and an answer without one', async () => {
    const c = await connection();
    const outsider = { email: 'eve@evil.example', attributes: { email: 'eve@evil.example' } };
    refused(await saml().answer(c, await signIn(c, { user: outsider as typeof ADA })), 'domain');
    const nameless = { email: 'ada@acme.test', attributes: { givenName: 'Ada' } };
    refused(await saml().answer(c, await signIn(c, { user: nameless as typeof ADA })), 'missingEmail');
  });

  it('takes answers signed by either certificate while the provider rotates to the next', async () => {
    const next = new TestIdp(signingPair(), 'idp');
    const c = await connection(idp, { certificates: JSON.stringify([idp.pair.cert, next.pair.cert]) });
    assert.ok((await saml().answer(c, await signIn(c))).ok);
    assert.ok((await saml().answer(c, await signIn(c, { provider: next }))).ok);
  });

  it('refuses what is not a SAML answer at all', async () => {
    const c = await connection();
    refused(await saml().answer(c, Buffer.from('<html/>').toString('base64')), 'malformed');
  });
});
