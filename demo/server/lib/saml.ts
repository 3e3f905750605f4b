import { randomBytes, X509Certificate } from 'node:crypto';
import { SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import {
  NAME_ID,
  SAML_CLOCK_SKEW_MS,
  SAML_REQUEST_MS,
  type ConnectionMapping,
  type SamlProblem,
  type SamlPurpose,
} from '../../../src/contract/connections';
import type { Repositories } from '../db/repositories';
import type { TeamConnectionsTable } from '../db/schema';
import type { Clock } from './clock';

/** The RelayState of a test sign-in: this, then its request's id. */
export const TEST_RELAY = 'test.';

/**
 * This site's addresses as the service provider of one connection (what the admin gives the provider):
 * SAML's per connection; OpenID Connect's one redirect URI for all (the state names the request).
 */
export function serviceProviderUrls(publicUrl: string, connectionId: string) {
  const base = `${publicUrl}/saml/${encodeURIComponent(connectionId)}`;
  return {
    entityId: base,
    acsUrl: `${base}/acs`,
    metadataUrl: `${base}/metadata`,
    redirectUri: `${publicUrl}${OIDC_CALLBACK_PATH}`,
  };
}

/** Where every OpenID Connect connection's provider sends the browser back. */
export const OIDC_CALLBACK_PATH = '/sso/callback';

/** What a provider's accepted answer says about the person, as the connection maps it. */
export interface SamlClaims {
  email: string;
  id: string;
  givenName: string | null;
  familyName: string | null;
  groups: string[];
  /** Every attribute received, for the admin's test page. */
  attributes: Record<string, string[]>;
}

/** The request an answer answered: a sign-in's browser binding and where to go after (null: a test's). */
export interface AnsweredRequest {
  browserHash: string | null;
  returnUrl: string | null;
}

export type SamlOutcome =
  | { ok: true; purpose: SamlPurpose; claims: SamlClaims; request: AnsweredRequest | null }
  | { ok: false; problem: SamlProblem; detail: string };

class Refused extends Error {
  constructor(
    readonly problem: SamlProblem,
    detail: string,
  ) {
    super(detail);
  }
}

/** node-saml's refusals, by what they are about (its messages are its interface; see the tests). */
const NODE_SAML_PROBLEMS: Array<[RegExp, SamlProblem]> = [
  [
    /no response found|missing saml|unknown saml|not a valid|non-whitespace|unclosed|invalid xml/i,
    'malformed',
  ],
  [/signature|not signed|signed/i, 'signature'],
  [/audience/i, 'audience'],
  [/expired|not yet valid|clock|NotOnOrAfter|NotBefore/i, 'clock'],
  [/status/i, 'status'],
  [/issuer/i, 'signature'],
];

type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const first = (node: unknown, name: string): XmlNode | undefined =>
  (node as Record<string, XmlNode[] | undefined> | undefined)?.[name]?.[0];

/**
 * The service provider side of a team's SAML connections, built on node-saml (which checks the
 * signature on the verified XML only, the audience and the assertion's times) with what it leaves to
 * its caller kept in the database, so any node can take the answer: the request each answer belongs
 * to (spent once), the assertions used (a replay is refused), the recipient and destination, and the
 * e-mail's domain, which must be one of the team's verified domains.
 */
export function samlService(deps: { repos: Repositories; clock: Clock; publicUrl: string }) {
  const { repos, clock, publicUrl } = deps;

  function samlFor(
    connection: TeamConnectionsTable,
    requestId?: string,
    certificates = JSON.parse(connection.certificates) as string[],
    forceAuthn = false,
  ): SAML {
    const { entityId, acsUrl } = serviceProviderUrls(publicUrl, connection.id);
    return new SAML({
      issuer: entityId,
      callbackUrl: acsUrl,
      audience: entityId,
      entryPoint: connection.sso_url ?? undefined,
      idpIssuer: connection.idp_entity_id ?? undefined,
      idpCert: certificates,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      // The request is spent here, in one statement (spendRequest): node-saml's cache reads and then
      // removes, which two nodes could both pass.
      validateInResponseTo: ValidateInResponseTo.never,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      forceAuthn,
      ...(requestId ? { generateUniqueId: () => requestId } : {}),
    });
  }

  /**
   * Where to send the browser to sign in at the provider; the request waits for its answer. With
   * `relayPrefix`, the RelayState is it and the request's id; a sign-in's request is bound to its
   * browser; `forceAuthn` asks the provider for a fresh sign-in (an app's max_age).
   */
  async function start(
    connection: TeamConnectionsTable,
    purpose: SamlPurpose,
    options: {
      relayPrefix?: string;
      signIn?: { browserHash: string; returnUrl: string | null };
      forceAuthn?: boolean;
    } = {},
  ) {
    const id = `_${randomBytes(20).toString('hex')}`;
    await repos.connections.saveRequest(id, connection.id, purpose, clock.now(), options.signIn);
    // The RelayState, when asked for, names the request: the answer's route can tell its own test.
    const relayState = options.relayPrefix === undefined ? '' : `${options.relayPrefix}${id}`;
    const saml = samlFor(connection, id, undefined, options.forceAuthn);
    return saml.getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /** The provider's answer posted to the connection's ACS URL, accepted or refused with why. */
  async function answer(connection: TeamConnectionsTable, samlResponse: string): Promise<SamlOutcome> {
    try {
      return { ok: true, ...(await accept(connection, samlResponse)) };
    } catch (error) {
      if (error instanceof Refused) return { ok: false, problem: error.problem, detail: error.message };
      const message = error instanceof Error ? error.message : String(error);
      const problem = NODE_SAML_PROBLEMS.find(([pattern]) => pattern.test(message))?.[1] ?? 'malformed';
      return { ok: false, problem, detail: message };
    }
  }

  async function accept(connection: TeamConnectionsTable, samlResponse: string) {
    const { acsUrl } = serviceProviderUrls(publicUrl, connection.id);
    // node-saml takes a certificate for its key alone: one past its dates signs nothing here.
    const now = clock.now();
    const held = JSON.parse(connection.certificates) as string[];
    if (held.length === 0) throw new Refused('certificate', 'the connection has no certificate yet');
    const valid = held.filter((pem) => {
      const cert = new X509Certificate(pem);
      return Date.parse(cert.validFrom) <= now && now < Date.parse(cert.validTo);
    });
    if (valid.length === 0)
      throw new Refused('certificate', 'every certificate of the connection has expired');
    const { profile } = await samlFor(connection, undefined, valid).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    });
    if (!profile) throw new Refused('malformed', 'the answer holds no assertion');
    // From here on, only the verified assertion is read (node-saml parses it from the signed XML).
    const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
    const subject = first(assertion, 'Subject');
    const confirmations = (subject?.SubjectConfirmation ?? []) as XmlNode[];
    const bearer = confirmations.find((c) => c.$?.Method === 'urn:oasis:names:tc:SAML:2.0:cm:bearer');
    const data = first(bearer, 'SubjectConfirmationData')?.$ ?? {};
    if (data.Recipient !== acsUrl)
      throw new Refused('recipient', `the assertion is for ${data.Recipient ?? 'no recipient'}`);
    const destination = destinationOf(profile);
    if (destination !== null && destination !== acsUrl)
      throw new Refused('destination', `the answer was sent to ${destination}`);

    let purpose: SamlPurpose = 'signIn';
    let request: AnsweredRequest | null = null;
    const inResponseTo = data.InResponseTo ?? null;
    if (inResponseTo === null) {
      if (!connection.idp_initiated)
        throw new Refused(
          'unsolicited',
          'an answer to no request, and sign-in started at the provider is off',
        );
    } else {
      const spent = await repos.connections.spendRequest(inResponseTo, connection.id, clock.now());
      if (!spent)
        throw new Refused('unknownRequest', 'an answer to a request this site did not send, or answered');
      purpose = spent.purpose;
      request = { browserHash: spent.browser_hash, returnUrl: spent.return_url };
    }

    const assertionId = assertion?.$?.ID;
    if (!assertionId) throw new Refused('malformed', 'the assertion has no ID');
    const until = Date.parse(data.NotOnOrAfter ?? '') || clock.now() + SAML_REQUEST_MS;
    if (!(await repos.connections.useAssertion(connection.id, assertionId, until, clock.now())))
      throw new Refused('replay', 'this assertion was used before');

    const claims = claimsOf(profile, JSON.parse(connection.mapping) as ConnectionMapping);
    const domain = claims.email.split('@')[1] ?? '';
    const verified = await repos.domains.list(connection.team_id);
    if (!verified.some((d) => d.state === 'verified' && d.domain === domain))
      throw new Refused('domain', `${domain} is not one of the team's verified domains`);
    return { purpose, claims, request };
  }

  return { start, answer, samlFor };
}

/** The Response's Destination (outside the signed assertion: compared, never trusted), if any. */
function destinationOf(profile: Profile): string | null {
  const root = new DOMParser().parseFromString(
    profile.getSamlResponseXml?.() ?? '<none/>',
    'text/xml',
  ).documentElement;
  return root?.hasAttribute('Destination') ? root.getAttribute('Destination') : null;
}

/** The claims at the places the mapping names; the e-mail is required. */
function claimsOf(profile: Profile, mapping: ConnectionMapping): SamlClaims {
  const attributes: Record<string, string[]> = {};
  for (const [name, value] of Object.entries((profile.attributes ?? {}) as Record<string, unknown>))
    attributes[name] = [value].flat().map(String);
  const read = (source: string | null) =>
    source === null ? [] : source === NAME_ID ? [profile.nameID].filter(Boolean) : (attributes[source] ?? []);
  const email = read(mapping.email)[0]?.trim().toLowerCase();
  if (!email || !email.includes('@'))
    throw new Refused('missingEmail', `no e-mail address in ${mapping.email}`);
  return {
    email,
    id: read(mapping.id)[0] ?? profile.nameID,
    givenName: read(mapping.givenName)[0] ?? null,
    familyName: read(mapping.familyName)[0] ?? null,
    groups: read(mapping.groups),
    attributes,
  };
}

export type SamlService = ReturnType<typeof samlService>;
