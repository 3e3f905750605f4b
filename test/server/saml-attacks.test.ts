/**
 * Hand-made attacks on a team's SAML connection (lib/saml.ts), each answer built from an honest one of
 * an independent identity provider (samlify's) and, where it needs a valid signature, signed again by
 * Debian's xmlsec1 with the provider's own key: signature wrapping (an unsigned assertion before the
 * signed one; a copy with the signed one's ID, the signed one tucked inside), the signature taken
 * off, a comment inside the NameID, and a provider whose only certificate has expired. Every one is
 * refused and signs nobody in.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PRESET_MAPPINGS, type ConnectionPreset } from '../../src/contract/connections';
import type { TeamConnectionsTable } from '../../demo/server/db/schema';
import { serviceProviderUrls, type SamlOutcome } from '../../demo/server/lib/saml';
import { signingPair, TestIdp } from '../support/saml-idp';
import { createTestApp, type TestApp } from '../support/test-server';
import { signAssertion, withoutSignature } from '../support/xmlsec';

let t: TestApp;
let idp: TestIdp;
let acme: string;
before(async () => {
  t = await createTestApp();
  idp = new TestIdp(signingPair(1));
  acme = (
    await t.db.kysely.selectFrom('teams').select('id').where('name', '=', 'acme').executeTakeFirstOrThrow()
  ).id;
});
after(() => t.close());

async function connection(preset: ConnectionPreset = 'saml'): Promise<TeamConnectionsTable> {
  const now = t.clock.now();
  return t.app.services.repos.connections.create({
    id: randomUUID(),
    team_id: acme,
    protocol: 'saml',
    preset,
    name: 'Acme IdP',
    idp_entity_id: idp.entityId,
    sso_url: idp.ssoUrl,
    certificates: JSON.stringify([idp.pair.cert]),
    mapping: JSON.stringify(PRESET_MAPPINGS[preset]),
    idp_initiated: 0,
    enabled: 0,
    default_permissions: '[]',
    tested_at: null,
    created_at: now,
    updated_at: now,
  });
}

/** An honest answer for Ada to a request of `c`, as XML, and the request's id. */
async function honest(c: TeamConnectionsTable) {
  const sp = serviceProviderUrls(t.config.publicUrl, c.id);
  const request = await idp.requestId(await t.app.services.saml.start(c, 'test'), sp);
  const answer = await idp.answer(sp, request, {
    email: 'ada@acme.test',
    attributes: { email: 'ada@acme.test' },
  });
  return Buffer.from(answer, 'base64').toString('utf8');
}

const post = (c: TeamConnectionsTable, xml: string) =>
  t.app.services.saml.answer(c, Buffer.from(xml).toString('base64'));

function refused(outcome: SamlOutcome, problems: string[]) {
  assert.equal(outcome.ok, false, `refused (got ${JSON.stringify(outcome.ok && outcome.claims)})`);
  if (!outcome.ok) assert.ok(problems.includes(outcome.problem), `${outcome.problem}: ${outcome.detail}`);
}

const assertionOf = (xml: string) => /<saml:Assertion\b[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
const idOf = (assertion: string) => /<saml:Assertion\b[^>]*\bID="([^"]+)"/.exec(assertion)![1]!;

/** Ada's assertion made Bob's: another e-mail at the same verified domain, the signature gone. */
const forged = (assertion: string) =>
  withoutSignature(assertion).replaceAll('ada@acme.test', 'bob@acme.test');

describe('SAML connections: attacks', () => {
  it('the honest answer these attacks start from is accepted', async () => {
    const c = await connection();
    const outcome = await post(c, await honest(c));
    assert.ok(outcome.ok && outcome.claims.email === 'ada@acme.test');
  });

  it('signature wrapping: an unsigned assertion before the signed one', async () => {
    const c = await connection();
    const xml = await honest(c);
    const signed = assertionOf(xml);
    const evil = forged(signed).replace(`ID="${idOf(signed)}"`, 'ID="_evil"');
    refused(await post(c, xml.replace(signed, evil + signed)), ['signature', 'malformed']);
  });

  it('signature wrapping: a copy with the signed assertion’s ID, the signed one tucked inside it', async () => {
    const c = await connection();
    const xml = await honest(c);
    const signed = assertionOf(xml);
    const evil = forged(signed).replace(
      '</saml:Subject>',
      `</saml:Subject><saml:Advice>${signed}</saml:Advice>`,
    );
    refused(await post(c, xml.replace(signed, evil)), ['signature', 'malformed']);
    // …and the signed one in the response's Extensions, the copy in its place.
    const extensions = xml
      .replace(signed, forged(signed))
      .replace('<samlp:Status>', `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`);
    refused(await post(c, extensions), ['signature', 'malformed']);
  });

  it('the signature taken off', async () => {
    const c = await connection();
    refused(await post(c, withoutSignature(await honest(c))), ['signature']);
  });

  it('a comment inside the NameID does not cut the address short', async () => {
    // Google's setup reads the e-mail from the NameID. The provider signs
    // "ada@acme.test<!---->.evil.example": canonicalisation drops the comment, so the signature is
    // over ada@acme.test.evil.example, and a reader that stops at the comment would see ada@acme.test.
    const c = await connection('google');
    const xml = withoutSignature(await honest(c)).replace(
      /(<saml:NameID\b[^>]*>)ada@acme\.test</,
      '$1ada@acme.test<!---->.evil.example<',
    );
    const outcome = await post(c, signAssertion(xml, idOf(assertionOf(xml)), idp.pair));
    refused(outcome, ['domain']);
    if (!outcome.ok) assert.match(outcome.detail, /acme\.test\.evil\.example/);
  });

  it('xmlsec1’s own signature of an honest assertion is accepted (the signer above is sound)', async () => {
    const c = await connection();
    const xml = withoutSignature(await honest(c));
    assert.ok((await post(c, signAssertion(xml, idOf(assertionOf(xml)), idp.pair))).ok);
  });

  it('an answer signed with a certificate that has expired', async () => {
    const c = await connection();
    t.clock.advance(2 * 24 * 3600_000); // the provider's certificate was valid for one day
    try {
      refused(await post(c, await honest(c)), ['certificate']);
    } finally {
      t.clock.advance(-2 * 24 * 3600_000);
    }
  });
});
