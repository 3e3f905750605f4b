import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Account, type Configuration } from 'oidc-provider';
import { demoClient } from '../db/seed';
import { randomToken } from '../lib/crypto';
import { escapeHtml } from '../lib/plain-page';
import type { ProviderKind } from '../db/schema';
import { memoryAdapter } from './memory-adapter';
import { readForm, standInPage } from './page';

/**
 * Stand-in identity providers for offline demos and tests: one real OpenID provider (oidc-provider) per
 * provider kind, each on its own loopback port, that the relying-party code (openid-client, code flow
 * with PKCE, state and nonce) talks to exactly as it would to Google, Microsoft, Auth0 or Apple (whose
 * stand-in answers by form_post, takes the client secret in the form and says `email_verified` as a
 * string, as Apple does). Mounted only
 * in demo mode. Their sign-in page is a plain form: type an account name and continue.
 */

interface StandInAccount {
  email: string;
  name: string;
  /** Microsoft's tenant id claim. */
  tid?: string;
}

/** The stand-ins' people. An unknown name signs in too, as `<name>@<kind>.example` (no such user here). */
const ACCOUNTS: Record<ProviderKind, Record<string, StandInAccount>> = {
  google: {
    ada: { email: 'ada@acme.test', name: 'Ada Lovelace' },
    bob: { email: 'bob@acme.test', name: 'Bob Stone' },
    locked: { email: 'locked@acme.test', name: 'Lee Locke' },
    // A second Google identity with ada's e-mail: ada already has one linked.
    'ada-other': { email: 'ada@acme.test', name: 'Ada Lovelace' },
    stranger: { email: 'stranger@acme.test', name: 'Sam Stranger' },
  },
  azure: {
    dan: { email: 'dan@umbrella.test', name: 'Dan Okafor', tid: 'umbrella' },
    ada: { email: 'ada@acme.test', name: 'Ada Lovelace', tid: 'acme' },
    eve: { email: 'eve@outside.test', name: 'Eve Outsider', tid: 'outside' },
  },
  auth0: {
    ada: { email: 'ada@acme.test', name: 'Ada Lovelace' },
    carol: { email: 'carol@globex.test', name: 'Carol Diaz' },
  },
  apple: {
    ada: { email: 'ada@acme.test', name: 'Ada Lovelace' },
    newhire: { email: 'newhire@acme.test', name: 'Nia Newhire' },
  },
};

export const STANDIN_KINDS: ProviderKind[] = ['google', 'azure', 'auth0', 'apple'];

/**
 * A second client at each stand-in, for a team's OpenID Connect connection to it (the demo's and the
 * tests'): every connection answers at the one redirect URI.
 */
export const STANDIN_SSO_CLIENT = { id: 'acct-sso', secret: 'acct-sso-stand-in-secret' } as const;

function accountFor(kind: ProviderKind, id: string): StandInAccount {
  return ACCOUNTS[kind][id] ?? { email: id.includes('@') ? id : `${id}@${kind}.example`, name: id };
}

export interface StandIn {
  kind: ProviderKind;
  issuer: string;
  provider: Provider;
  close(): Promise<void>;
}

/** The sign-in page and its form post, answering the provider's login and consent prompts at once. */
async function interaction(
  provider: Provider,
  kind: ProviderKind,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'GET') {
    const known = Object.keys(ACCOUNTS[kind])
      .map((id) => `<code>${escapeHtml(id)}</code>`)
      .join(', ');
    standInPage(
      res,
      `${escapeHtml(kind)} (stand-in) — sign in`,
      `<h1>Sign in with ${escapeHtml(kind)}</h1><p>This is the demo's stand-in for a real provider. Known accounts: ${known}.</p><form method="post" action="/interaction/${escapeHtml(details.uid)}"><label for="login">Account</label><input id="login" name="login" autocomplete="username" required autofocus><button type="submit">Continue</button></form>`,
    );
    return;
  }
  const form = await readForm(req);
  const login = (form.get('login') ?? '').trim().toLowerCase();
  const accountId = `${kind}-${login}`;
  if (!login) {
    res.writeHead(400).end('account required');
    return;
  }
  const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

async function startOne(kind: ProviderKind, publicUrl: string, port: number): Promise<StandIn> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(port, 'localhost', resolve));
  // The identity server keeps the process running; a stand-in left listening alone (its app stopped
  // early) must not keep it alive.
  server.unref();
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const client = demoClient(kind);
  const apple = kind === 'apple';
  const configuration: Configuration = {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [`${publicUrl}/account/callback/${kind}`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        // Apple takes the client's secret in the form, and answers by form_post (the client asks).
        token_endpoint_auth_method: apple ? 'client_secret_post' : 'client_secret_basic',
      },
      {
        client_id: STANDIN_SSO_CLIENT.id,
        client_secret: STANDIN_SSO_CLIENT.secret,
        redirect_uris: [`${publicUrl}/sso/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // The account id is the subject itself (`<kind>-<name>`): oidc-provider 9 puts the account id in
    // `sub`, whatever the claims say.
    async findAccount(_ctx, accountId): Promise<Account> {
      const account = accountFor(kind, accountId.slice(kind.length + 1));
      return {
        accountId,
        async claims() {
          return {
            sub: accountId,
            email: account.email,
            // Apple sends it as a string.
            email_verified: apple ? 'true' : true,
            name: account.name,
            ...(account.tid ? { tid: account.tid } : {}),
          };
        },
      };
    },
    // Apple's scopes are `name email`; the others' `email profile`.
    claims: apple
      ? { openid: ['sub'], email: ['email', 'email_verified'], name: ['name'] }
      : { openid: ['sub', 'tid'], email: ['email', 'email_verified'], profile: ['name'] },
    ...(apple ? { scopes: ['openid', 'name', 'email'] } : {}),
    // Put the scope's claims in the ID token itself (the relying party reads them from there).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, details) => `/interaction/${details.uid}` },
    pkce: { required: () => true },
    cookies: { keys: [randomToken(32)] },
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: `${kind}-stand-in` }] },
    adapter: memoryAdapter(),
    // Short lives: these are throwaway demo sessions.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Grant: 600,
      Session: 3600,
    },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(provider, kind, req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`interaction failed: ${error instanceof Error ? error.message : String(error)}`);
      });
      return;
    }
    callback(req, res);
  });
  return {
    kind,
    issuer,
    provider,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Start the four stand-ins: Google, Microsoft, Auth0, Apple (ports 0 = any free port). */
export async function startStandIns(publicUrl: string, ports: number[]): Promise<Map<ProviderKind, StandIn>> {
  const started = new Map<ProviderKind, StandIn>();
  for (const [index, kind] of STANDIN_KINDS.entries()) {
    started.set(kind, await startOne(kind, publicUrl, ports[index] ?? 0));
  }
  return started;
}
