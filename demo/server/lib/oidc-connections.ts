import * as oidc from 'openid-client';
import {
  type ConnectionMapping,
  type ConnectionProblem,
  type SamlPurpose,
} from '../../../src/contract/connections';
import type { Repositories } from '../db/repositories';
import type { TeamConnectionsTable } from '../db/schema';
import type { Clock } from './clock';
import { guardedFetch, isPublicAddress, type OutboundOptions } from './outbound';
import { serviceProviderUrls, type AnsweredRequest, type SamlClaims } from './saml';
import type { Sealer } from './sealing';

export type OidcOutcome =
  | { ok: true; claims: SamlClaims; request: AnsweredRequest }
  | { ok: false; problem: ConnectionProblem; detail: string };

/** A refusal of the provider's configuration or answer, with why. */
export class OidcRefused extends Error {
  constructor(
    readonly problem: ConnectionProblem,
    detail: string,
  ) {
    super(detail);
  }
}

/** The most a provider's answer (a document, keys, tokens) may weigh. */
const PROVIDER_ANSWER_MAX_BYTES = 256 * 1024;

/** A claim's values as the mapping reads them: a string, or each string of an array. */
function valuesOf(claims: Record<string, unknown>, name: string | null): string[] {
  if (name === null) return [];
  const value = claims[name];
  return [value].flat().filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * The relying-party side of a team's OpenID Connect connections, through openid-client (authorization
 * code flow, PKCE S256, state and nonce; the ID token's signature, issuer, audience and times are its
 * checks). Each request waits in the database like a SAML one — its id is the state — so the answer
 * may reach any node and spends it once. The provider's addresses are called only when they resolve to
 * addresses the server may call (the outbound rule of metadata fetching), and its secret is sealed.
 */
export function oidcConnectionService(deps: {
  repos: Repositories;
  clock: Clock;
  publicUrl: string;
  sealer: Sealer;
  privateAddresses: boolean;
  /** Outbound options beyond these (the tests' guard and lookup). */
  outbound?: Partial<OutboundOptions>;
}) {
  const { repos, clock, publicUrl, sealer } = deps;
  const allowHttp = new URL(publicUrl).protocol === 'http:';
  // Every request to the provider — discovery, then the token, keys and user info endpoints its
  // document names, which may be other hosts — goes through the outbound guard, its address pinned.
  const fetchGuarded = guardedFetch({
    allowHttp,
    addressAllowed: deps.privateAddresses ? () => true : isPublicAddress,
    maxBytes: PROVIDER_ANSWER_MAX_BYTES,
    ...deps.outbound,
  });
  const configs = new Map<string, Promise<oidc.Configuration>>();
  const context = (id: string) => `team_connections:${id}`;

  /** Plain http only where this site is on http (the demo, the tests). */
  async function checkIssuer(issuer: URL) {
    if (issuer.protocol !== 'https:' && !(allowHttp && issuer.protocol === 'http:'))
      throw new OidcRefused('discovery', `${issuer.href} is not an https address`);
  }

  /** The provider's configuration, discovered once per connection version. */
  function configFor(row: TeamConnectionsTable): Promise<oidc.Configuration> {
    if (!row.issuer || !row.client_id || !row.client_secret)
      return Promise.reject(new OidcRefused('discovery', 'the provider’s details are not all there'));
    const key = `${row.id}\n${row.updated_at}`;
    let pending = configs.get(key);
    if (!pending) {
      const issuer = new URL(row.issuer);
      const secret = sealer.open(row.client_secret, context(row.id));
      pending = checkIssuer(issuer).then(() =>
        oidc
          .discovery(issuer, row.client_id!, undefined, oidc.ClientSecretBasic(secret), {
            execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
            timeout: 5,
            [oidc.customFetch]: fetchGuarded,
          })
          .catch((error: unknown) => {
            throw new OidcRefused(
              'discovery',
              `the provider’s configuration could not be read: ${error instanceof Error ? error.message : String(error)}`,
            );
          }),
      );
      configs.set(key, pending);
      pending.catch(() => configs.delete(key));
    }
    return pending;
  }

  return {
    /** The client secret as stored: sealed to the connection's row. */
    sealSecret: (connectionId: string, secret: string) => sealer.seal(secret, context(connectionId)),

    /**
     * Where to send the browser to sign in at the provider; the request waits for its answer, a
     * sign-in's bound to its browser. `forceAuthn` asks for a fresh sign-in (an app's max_age).
     */
    async start(
      row: TeamConnectionsTable,
      purpose: SamlPurpose,
      options: { signIn?: { browserHash: string; returnUrl: string | null }; forceAuthn?: boolean } = {},
    ): Promise<string> {
      const config = await configFor(row);
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const verifier = oidc.randomPKCECodeVerifier();
      await repos.connections.saveRequest(state, row.id, purpose, clock.now(), {
        browserHash: options.signIn?.browserHash ?? null,
        returnUrl: options.signIn?.returnUrl ?? null,
        codeVerifier: verifier,
        nonce,
      });
      const parameters: Record<string, string> = {
        redirect_uri: serviceProviderUrls(publicUrl, row.id).redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...(options.forceAuthn ? { prompt: 'login' } : {}),
      };
      return oidc.buildAuthorizationUrl(config, parameters).href;
    },

    /**
     * The provider's answer at the redirect URI: the request its state names, spent once (undefined
     * when there is none), the connection it was sent by, and the answer accepted or refused with why.
     */
    async answer(callback: URL) {
      const state = callback.searchParams.get('state');
      const spent = state ? await repos.connections.spendAnyRequest(state, clock.now()) : undefined;
      const connection = spent ? await repos.connections.find(spent.connection_id) : undefined;
      if (!spent || !connection || connection.protocol !== 'oidc') return undefined;
      const request = { browserHash: spent.browser_hash, returnUrl: spent.return_url };
      let outcome: OidcOutcome;
      try {
        const claims = await accept(connection, callback, state!, spent);
        outcome = { ok: true, claims, request };
      } catch (error) {
        if (!(error instanceof OidcRefused)) throw error;
        outcome = { ok: false, problem: error.problem, detail: error.message };
      }
      return { connection, purpose: spent.purpose, request, outcome };
    },
  };

  async function accept(
    row: TeamConnectionsTable,
    callback: URL,
    state: string,
    spent: { code_verifier: string | null; nonce: string | null },
  ): Promise<SamlClaims> {
    const refusal = callback.searchParams.get('error');
    if (refusal) throw new OidcRefused('status', callback.searchParams.get('error_description') ?? refusal);
    const config = await configFor(row);
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: spent.code_verifier ?? undefined,
        expectedState: state,
        expectedNonce: spent.nonce ?? undefined,
        idTokenExpected: true,
      });
      claims = tokens.claims() ?? {};
    } catch (error) {
      throw new OidcRefused('token', error instanceof Error ? error.message : String(error));
    }
    const mapping = JSON.parse(row.mapping) as ConnectionMapping;
    const email = valuesOf(claims, mapping.email)[0]?.trim().toLowerCase();
    if (!email || !email.includes('@'))
      throw new OidcRefused('missingEmail', `no e-mail address in ${mapping.email}`);
    if (claims.email_verified === false || claims.email_verified === 'false')
      throw new OidcRefused('unverifiedEmail', `the provider has not verified ${email}`);
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const verified = await repos.domains.list(row.team_id);
    if (!verified.some((d) => d.state === 'verified' && d.domain === domain))
      throw new OidcRefused('domain', `${domain} is not one of the team's verified domains`);
    const attributes = Object.fromEntries(
      Object.keys(claims).map((name) => [name, valuesOf(claims, name)] as const),
    );
    const given = valuesOf(claims, mapping.givenName)[0] ?? null;
    const family = valuesOf(claims, mapping.familyName)[0] ?? null;
    return {
      email,
      id: valuesOf(claims, mapping.id)[0] ?? String(claims.sub),
      // A provider that sends only the whole name (`name`): it stands for both.
      givenName: given ?? (family === null ? (valuesOf(claims, 'name')[0] ?? null) : null),
      familyName: family,
      groups: valuesOf(claims, mapping.groups),
      attributes,
    };
  }
}

export type OidcConnectionService = ReturnType<typeof oidcConnectionService>;
