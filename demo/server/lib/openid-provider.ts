import { createHmac } from 'node:crypto';
import Provider, {
  errors,
  interactionPolicy,
  type Account,
  type ClientMetadata,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { Config, OidcClient } from '../config';
import type { Repositories } from '../db/repositories';
import type { Session } from '../db/schema';
import type { Language } from '../../../src/contract/languages';
import { serverText } from '../mail/texts';
import type { Clock } from './clock';
import { signInPageLanguage } from './language';
import { SIGNING_ALG, TOKEN_TTL_SECONDS, type KeyRing } from './keys';
import { oidcAdapter } from './oidc-adapter';

/** Where the provider is mounted (docs/decisions/openid-provider.md). */
export const OIDC_PREFIX = '/oidc';
/** The provider's own routes under the prefix, as the root discovery lists them. */
export const OIDC_ROUTES = {
  authorization: '/auth',
  jwks: '/jwks',
  endSession: '/session/end',
  revocation: '/token/revocation',
  introspection: '/token/introspection',
  token: '/token',
} as const;
/** The grant types the provider itself answers at the token endpoint (the others stay the server's). */
export const PROVIDER_GRANTS = ['authorization_code', 'refresh_token'] as const;
/** The scopes a client may ask for; `offline_access` gives a refresh token (with `prompt=consent`). */
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'];
/**
 * The resource indicator (RFC 8707) of the server's API: an absolute URI, as the provider requires.
 * Its access tokens' `aud` stays ACCESS_TOKEN_AUDIENCE, what every bearer route checks.
 */
export const apiResource = (config: Config) => `${config.publicUrl}/api`;
/** Refresh tokens live 14 days (rotated at each use). */
const REFRESH_TTL_SECONDS = 14 * 24 * 3600;

/** The refusal page loads nothing: no script, no style, no image. */
export const REFUSAL_PAGE_CSP = "default-src 'none'";

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page for an app's sign-in request that cannot go on (refused by the provider, or expired): the
 * browser cannot safely go back to the app, so the user is told to go back and try again. The error
 * code is shown for whoever helps them.
 */
export function refusalPage(language: Language, code: string): string {
  const t = (key: 'title' | 'retry' | 'code') =>
    escapeHtml(serverText(language, `signInRefused.${key}`, { code }));
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t('title')}</title></head><body><main><h1>${t('title')}</h1><p>${t('retry')}</p><p>${t('code')}</p></main></body></html>`;
}

/** What the interaction route needs to know of the portal session behind a provider request. */
export type PortalSessionOf = (cookieHeader: string | undefined) => Promise<Session | null>;

export interface OpenIdProviderDeps {
  config: Config;
  repos: Repositories;
  keys: KeyRing;
  clock: Clock;
  clients: OidcClient[];
  /** The live portal session of a request's cookies, if any. */
  portalSession: PortalSessionOf;
}

/**
 * The login prompt also asks for a sign-in when the provider's session no longer stands on a live
 * portal session of the same user: signing out of the portal ends the provider's sign-ins too, and
 * `prompt=none` then answers `login_required`.
 */
function loginPolicy(portalSession: PortalSessionOf) {
  const policy = interactionPolicy.base();
  const login = policy.get('login');
  login?.checks.add(
    new interactionPolicy.Check(
      'portal_session',
      'the portal session has ended',
      'login_required',
      async (ctx: KoaContextWithOIDC) => {
        const accountId = ctx.oidc.session?.accountId;
        if (!accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
        const session = await portalSession(ctx.get('cookie') || undefined);
        return session?.user_id === accountId
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT;
      },
    ),
  );
  return policy;
}

function configuration(deps: OpenIdProviderDeps): Configuration {
  const { config, repos, keys, clock } = deps;
  const audience = config.accessTokenAudience;
  const member = (accountId: string) => repos.users.findMember(accountId);
  return {
    adapter: oidcAdapter(repos.oidcModels, clock),
    // Checked in config.ts for what it can say plainly; the provider checks the rest when built.
    clients: deps.clients as ClientMetadata[],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: SIGNING_ALG,
      token_endpoint_auth_method: 'none',
      // The id token always says when the user signed in (spec: `auth_time` is among its claims).
      require_auth_time: true,
    },
    enabledJWA: { idTokenSigningAlgValues: [SIGNING_ALG] },
    // The code flow only: no implicit or hybrid answers that put tokens in the address.
    responseTypes: ['code'],
    // The server's own signing keys (lib/keys.ts), the signing key first; read when the provider is
    // built, so a new key set builds a new provider (OpenIdProvider.current).
    jwks: { keys: keys.privateJwks() as NonNullable<Configuration['jwks']>['keys'] },
    cookies: {
      keys: [createHmac('sha256', keys.hmacSecret).update('oidc-provider cookies').digest('base64url')],
      names: { session: 'oidc_session', interaction: 'oidc_interaction', resume: 'oidc_resume' },
    },
    async findAccount(_ctx, accountId): Promise<Account | undefined> {
      const found = await member(accountId);
      if (!found) return undefined;
      const groups = await repos.groups.namesOf({ id: accountId });
      return {
        accountId,
        async claims() {
          return {
            sub: accountId,
            email: found.email,
            name: found.name,
            team: found.teamName,
            team_id: found.teamId,
            groups,
          };
        },
      };
    },
    claims: {
      // How the user signed in, from the portal session (the interaction's login result); when
      // (`auth_time`) comes with every id token (`require_auth_time`).
      openid: ['sub', 'amr'],
      email: ['email'],
      profile: ['name', 'team', 'team_id', 'groups'],
    },
    scopes: OIDC_SCOPES,
    // The scopes' claims go into the id token itself: the suite apps read the team from there.
    conformIdTokenClaims: false,
    extraParams: ['team'],
    // The access token carries the user's team, as the server's own do: /connect/userinfo and every
    // bearer route accept it like one of theirs (lib/bearer.ts).
    async extraTokenClaims(_ctx, token) {
      if (!('accountId' in token) || typeof token.accountId !== 'string') return undefined;
      const found = await member(token.accountId);
      return found ? { team_id: found.teamId } : undefined;
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: true },
      // The server's /connect/userinfo answers (it accepts the provider's access tokens).
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiResource(config),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== apiResource(config)) throw new errors.InvalidTarget();
          return {
            scope: 'openid profile email',
            audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: TOKEN_TTL_SECONDS,
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
    },
    interactions: {
      policy: loginPolicy(deps.portalSession),
      url: (_ctx, interaction) => `${OIDC_PREFIX}/interaction/${interaction.uid}`,
    },
    pkce: { required: () => true },
    routes: {
      authorization: OIDC_ROUTES.authorization,
      jwks: OIDC_ROUTES.jwks,
      end_session: OIDC_ROUTES.endSession,
      revocation: OIDC_ROUTES.revocation,
      introspection: OIDC_ROUTES.introspection,
      token: OIDC_ROUTES.token,
    },
    // A refused authorization request (unknown client, a redirect URI not registered) never redirects:
    // a plain page with the protocol's error, in the language the app asked for.
    async renderError(ctx, out) {
      const params = ctx.oidc?.params ?? ctx.query;
      const language = signInPageLanguage(params?.ui_locales, ctx.get('accept-language') || undefined);
      ctx.type = 'html';
      ctx.set('Content-Security-Policy', REFUSAL_PAGE_CSP);
      ctx.body = refusalPage(language, String(out.error ?? 'server_error'));
    },
    rotateRefreshToken: true,
    ttl: {
      AccessToken: TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: TOKEN_TTL_SECONDS,
      Interaction: 600,
      Grant: REFRESH_TTL_SECONDS,
      Session: 14 * 24 * 3600,
      RefreshToken: REFRESH_TTL_SECONDS,
    },
  };
}

/**
 * The OpenID Provider (oidc-provider) on the server's keys and database. The provider reads its keys
 * once, when it is built: `current()` builds a new one whenever the key ring's live keys change (a
 * rotation, a retired key dropped), docs/decisions/openid-provider-keys.md. Everything else it keeps is
 * in the database, so a new provider carries on where the last one was.
 */
export class OpenIdProvider {
  private provider: Provider | null = null;
  private keySet = '';

  constructor(private readonly deps: OpenIdProviderDeps) {}

  current(): Provider {
    const keySet = this.deps.keys
      .privateJwks()
      .map((key) => key.kid)
      .join(' ');
    if (!this.provider || keySet !== this.keySet) {
      const provider = new Provider(this.deps.config.publicUrl, configuration(this.deps));
      // Behind a proxy the public address comes from X-Forwarded-Proto/Host (the issuer is PUBLIC_URL).
      provider.proxy = true;
      this.provider = provider;
      this.keySet = keySet;
    }
    return this.provider;
  }
}
