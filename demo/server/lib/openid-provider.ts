import { createHmac } from 'node:crypto';
import Provider, {
  errors,
  interactionPolicy,
  type Account,
  type Client,
  type ClientMetadata,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { confirm as endSessionConfirm } from 'oidc-provider/lib/actions/end_session.js';
import type { Config, OidcClient } from '../config';
import { LOOPBACK_HOSTS } from '../../../src/contract/app-uris';
import type { Repositories } from '../db/repositories';
import type { Session } from '../db/schema';
import { LANGUAGE_COOKIE, matchLanguage, type Language } from '../../../src/contract/languages';
import { serverText } from '../mail/texts';
import type { Clock } from './clock';
import { signInPageLanguage } from './language';
import { SIGNING_ALG, TOKEN_TTL_SECONDS, type KeyRing } from './keys';
import { bindPortalSession } from './app-logout';
import { oidcAdapter } from './oidc-adapter';
import { escapeHtml, PLAIN_PAGE_CSP, plainPage } from './plain-page';
import { codeProblem, deviceCodePage, deviceConfirmPage, deviceDonePage } from './device-pages';
import { userGrants } from './oidc-grants';
import { matchesHashedSecret, teamAppMetadata } from './team-apps';

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
  deviceAuthorization: '/device/auth',
  codeVerification: '/device',
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
export const REFUSAL_PAGE_CSP = PLAIN_PAGE_CSP;

/**
 * The page for an app's sign-in request that cannot go on (refused by the provider, or expired): the
 * browser cannot safely go back to the app, so the user is told to go back and try again, or to open
 * their account here (a sign-up finished from its mail on another device ends here, signed in). The
 * error code is shown for whoever helps them.
 */
export function refusalPage(language: Language, code: string): string {
  const t = (key: 'title' | 'retry' | 'account' | 'code') =>
    escapeHtml(serverText(language, `signInRefused.${key}`, { code }));
  return plainPage(
    language,
    t('title'),
    `<p>${t('retry')}</p><p><a href="/">${t('account')}</a></p><p>${t('code')}</p>`,
  );
}

const signOutText = (language: Language, key: 'title' | 'body' | 'confirm' | 'stay' | 'done' | 'close') =>
  escapeHtml(serverText(language, `signOut.${key}`));

/**
 * The question before an app's sign-out without a hint naming the signed-in user: a form to the
 * provider's confirmation with its anti-forgery field; "Sign out" sends `logout`, "Stay signed in" not.
 */
export function signOutQuestionPage(language: Language, action: string, xsrf: string): string {
  const t = (key: 'title' | 'body' | 'confirm' | 'stay') => signOutText(language, key);
  return plainPage(
    language,
    t('title'),
    `<p>${t('body')}</p><form method="post" action="${escapeHtml(action)}"><input type="hidden" name="xsrf" value="${escapeHtml(xsrf)}"><button type="submit" name="logout" value="yes">${t('confirm')}</button> <button type="submit" class="secondary">${t('stay')}</button></form>`,
  );
}

/** Where an app's sign-out ends when the app gave no address to go back to. */
export function signedOutPage(language: Language): string {
  return plainPage(language, signOutText(language, 'done'), `<p>${signOutText(language, 'close')}</p>`);
}

/**
 * The sign-out pages' policy: nothing loaded, the form posts to the provider only, and its answer may
 * redirect to the app's registered post-logout address (browsers check form-action on that redirect).
 */
function signOutPageCsp(postLogoutRedirectUri: unknown): string {
  const app = typeof postLogoutRedirectUri === 'string' ? ` ${new URL(postLogoutRedirectUri).origin}` : '';
  return `${REFUSAL_PAGE_CSP}; form-action 'self'${app}`;
}

const pageLanguage = (ctx: KoaContextWithOIDC) =>
  signInPageLanguage(ctx.oidc?.params?.ui_locales, ctx.get('accept-language') || undefined);

/** Ask before signing out (the provider's logout page, and the same question without its session). */
function askToSignOut(ctx: KoaContextWithOIDC) {
  const { secret, postLogoutRedirectUri } = ctx.oidc.session!.state as Record<string, unknown>;
  ctx.type = 'html';
  ctx.set('Content-Security-Policy', signOutPageCsp(postLogoutRedirectUri));
  ctx.body = signOutQuestionPage(pageLanguage(ctx), ctx.oidc.urlFor('end_session_confirm'), String(secret));
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
  /**
   * End the portal session of a request's cookies as the portal's own sign-out does; the Set-Cookie
   * header that clears its cookie, or null when the request has none.
   */
  endPortalSession: (cookieHeader: string | undefined) => Promise<string | null>;
}

/**
 * An app's sign-out (RP-initiated logout): the provider checks the request (the hint's signature and
 * audience, the exact post-logout address) and keeps what it needs in its session; then
 * - with a hint naming the signed-in user, or nobody signed in, the sign-out is confirmed at once, as
 *   the provider's confirmation would with "Sign out" (its own step, without the page's script);
 * - otherwise the user is asked first (askToSignOut);
 * - a confirmed sign-out ends the portal session of the browser too, so the next sign-in asks again.
 */
function appSignOut(deps: OpenIdProviderDeps) {
  const confirmSignOut = endSessionConfirm.at(-1)!;
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    const route = ctx.oidc?.route;
    if (route !== 'end_session' && route !== 'end_session_confirm') return;
    const cookie = ctx.get('cookie') || undefined;
    if (route === 'end_session' && ctx.status === 200) {
      const signedIn = ctx.oidc.session?.accountId ?? (await deps.portalSession(cookie))?.user_id;
      const hinted = (ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined)?.payload
        ?.sub;
      if (signedIn && hinted !== signedIn) return askToSignOut(ctx);
      ctx.oidc.params!.logout = 'yes';
      await confirmSignOut(ctx);
    }
    if (ctx.status === 303 && ctx.oidc.params?.logout) {
      const cleared = await deps.endPortalSession(cookie);
      if (cleared) ctx.append('Set-Cookie', cleared);
    }
  };
}

/** The device pages' language: the one the user chose in the portal, else the browser's. */
const deviceLanguage = (ctx: KoaContextWithOIDC) =>
  matchLanguage(ctx.cookies.get(LANGUAGE_COOKIE)) ??
  signInPageLanguage(undefined, ctx.get('accept-language') || undefined);

/** A device page: nothing loaded, its forms posted to the provider only. */
function devicePage(ctx: KoaContextWithOIDC, html: string) {
  ctx.type = 'html';
  ctx.set('Content-Security-Policy', `${PLAIN_PAGE_CSP}; form-action 'self'`);
  ctx.body = html;
}

/** The code field, with the code the form last sent and why it was refused, if it was. */
function askForDeviceCode(ctx: KoaContextWithOIDC, code?: string, errorName?: string) {
  devicePage(
    ctx,
    deviceCodePage(deviceLanguage(ctx), {
      action: ctx.oidc.urlFor('code_verification'),
      xsrf: String((ctx.oidc.session!.state as Record<string, unknown>).secret),
      code,
      problem: codeProblem(errorName),
    }),
  );
}

/**
 * The verification address with the code in it (`verification_uri_complete`): the provider would post
 * it on by an inline script, which the page's policy forbids; the code field comes filled in instead.
 */
function deviceCodeFromAddress() {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    const code = ctx.oidc?.params?.user_code;
    if (ctx.oidc?.route === 'code_verification' && ctx.method === 'GET' && typeof code === 'string')
      askForDeviceCode(ctx, code);
  };
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

/**
 * The grant the request goes on with: the one of the provider's session (or of the interaction just
 * finished), else — a new browser session — the user's last grant to the app, so a consent given once
 * is remembered until the user removes the app (docs/decisions/oidc-consent.md).
 */
async function rememberedGrant(ctx: KoaContextWithOIDC, repos: Repositories, clock: Clock) {
  const { oidc } = ctx;
  const clientId = oidc.client!.clientId;
  const grantId = oidc.result?.consent?.grantId || oidc.session!.grantIdFor(clientId);
  const found = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  if (found) return found;
  const accountId = oidc.session!.accountId;
  if (!accountId) return undefined;
  const latest = (await userGrants(repos, accountId, clock.now())).find(
    (grant) => grant.clientId === clientId,
  );
  return latest ? oidc.provider.Grant.find(latest.id) : undefined;
}

/**
 * The provider's only outgoing requests: logout tokens to the apps' back-channel addresses. Its guard
 * against private, loopback and other special-use addresses (checked on the connected socket, so a
 * name that resolves inside the network is caught too) stays on for a team's apps, whose addresses
 * their admins enter; it is off for the operator's clients file, whose apps may well live next to the
 * server, and for loopback addresses in demo mode, where the demo's and the tests' apps listen. The
 * provider's 2.5 s time limit stays either way.
 */
function logoutTokenFetch(deps: OpenIdProviderDeps): NonNullable<Configuration['fetch']> {
  const operators = new Set(
    deps.clients.flatMap((client) =>
      client.backchannel_logout_uri ? [new URL(client.backchannel_logout_uri).href] : [],
    ),
  );
  return (url, options) => {
    const target = new URL(url instanceof Request ? url.url : url);
    const trusted = operators.has(target.href) || (deps.config.demo && LOOPBACK_HOSTS.has(target.hostname));
    if (!trusted) return globalThis.fetch(url, options);
    const { dispatcher: _guard, ...rest } = options as RequestInit & { dispatcher?: unknown };
    return globalThis.fetch(url, rest);
  };
}

function configuration(deps: OpenIdProviderDeps): Configuration {
  const { config, repos, keys, clock } = deps;
  const audience = config.accessTokenAudience;
  const member = (accountId: string) => repos.users.findMember(accountId);
  return {
    adapter: oidcAdapter(repos.oidcModels, clock, {
      async find(clientId) {
        const app = await repos.teamApps.find(clientId);
        return app && teamAppMetadata(app);
      },
      used: (clientId, now) => repos.teamApps.touch(clientId, now),
    }),
    // Checked in config.ts for what it can say plainly; the provider checks the rest when built.
    clients: deps.clients as ClientMetadata[],
    // `third_party`: the app asks the user's consent (config.ts checks it; absent is first-party).
    // `secret_hashed`: `client_secret` is the secret's SHA-256 (a team's app, hashedSecrets below).
    extraClientMetadata: {
      properties: ['third_party', 'team', 'secret_hashed'],
      validator(_ctx, key, value) {
        if (key === 'third_party' && value !== undefined && typeof value !== 'boolean')
          throw new errors.InvalidClientMetadata('third_party must be a boolean');
        if (key === 'team' && value !== undefined && typeof value !== 'string')
          throw new errors.InvalidClientMetadata('team must be a string');
        if (key === 'secret_hashed' && value !== undefined && typeof value !== 'boolean')
          throw new errors.InvalidClientMetadata('secret_hashed must be a boolean');
      },
    },
    loadExistingGrant: (ctx) => rememberedGrant(ctx, repos, clock),
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: SIGNING_ALG,
      token_endpoint_auth_method: 'none',
      // The id token always says when the user signed in (spec: `auth_time` is among its claims).
      require_auth_time: true,
      // An app with a back-channel logout address gets `sid` in its id tokens and logout tokens.
      backchannel_logout_session_required: true,
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
      // RFC 8628: a device without a browser shows a user code; the user confirms it at /oidc/device,
      // signing in through the portal's screens when needed.
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: '****-****',
        userCodeInputSource: async (ctx, _form, _out, error) =>
          askForDeviceCode(ctx, (error as { userCode?: string } | undefined)?.userCode, error?.name),
        userCodeConfirmSource: async (ctx, _form, client, _deviceInfo, userCode) =>
          devicePage(
            ctx,
            deviceConfirmPage(deviceLanguage(ctx), {
              action: ctx.oidc.urlFor('code_verification'),
              xsrf: String((ctx.oidc.session!.state as Record<string, unknown>).secret),
              code: userCode,
              app: client.clientName ?? client.clientId,
            }),
          ),
        successSource: async (ctx) =>
          devicePage(
            ctx,
            deviceDonePage(
              deviceLanguage(ctx),
              ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId ?? '',
            ),
          ),
      },
      // The server's /connect/userinfo answers (it accepts the provider's access tokens).
      userinfo: { enabled: false },
      // Logout tokens to the apps when a portal session ends (lib/app-logout.ts) or at end_session.
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // Replaced by appSignOut when no question is needed; the question otherwise.
        logoutSource: async (ctx) => askToSignOut(ctx),
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.set('Content-Security-Policy', REFUSAL_PAGE_CSP);
          ctx.body = signedOutPage(pageLanguage(ctx));
        },
      },
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
    fetch: logoutTokenFetch(deps),
    routes: {
      authorization: OIDC_ROUTES.authorization,
      jwks: OIDC_ROUTES.jwks,
      end_session: OIDC_ROUTES.endSession,
      revocation: OIDC_ROUTES.revocation,
      introspection: OIDC_ROUTES.introspection,
      token: OIDC_ROUTES.token,
      device_authorization: OIDC_ROUTES.deviceAuthorization,
      code_verification: OIDC_ROUTES.codeVerification,
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
    // Every token ends with the provider session, `offline_access` too (the provider's default keeps
    // those past a sign-out): a portal sign-out ends the apps' refresh tokens (lib/app-logout.ts).
    expiresWithSession: () => true,
    ttl: {
      AccessToken: TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      DeviceCode: 600,
      IdToken: TOKEN_TTL_SECONDS,
      Interaction: 600,
      Grant: REFRESH_TTL_SECONDS,
      Session: 14 * 24 * 3600,
      RefreshToken: REFRESH_TTL_SECONDS,
    },
  };
}

/**
 * A client whose metadata says `secret_hashed` holds the SHA-256 of its secret as `client_secret`
 * (a team's app: the secret itself is never stored). The provider's secret check — the Client method
 * it exposes for this — then compares the hash of the presented secret, so the secret works and the
 * stored hash, presented, does not (docs/decisions/team-app-secrets.md). Every other client keeps
 * the provider's own check.
 */
function hashedSecrets(provider: Provider) {
  const compare = provider.Client.prototype.compareClientSecret;
  provider.Client.prototype.compareClientSecret = function (this: Client, actual: string) {
    const hashed = (this as Client & { secret_hashed?: unknown }).secret_hashed === true;
    if (hashed && typeof this.clientSecret === 'string')
      return matchesHashedSecret(this.clientSecret, actual);
    return compare.call(this, actual);
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
      hashedSecrets(provider);
      provider.use(appSignOut(this.deps));
      provider.use(deviceCodeFromAddress());
      provider.use(bindPortalSession(this.deps.repos, this.deps.portalSession));
      this.provider = provider;
      this.keySet = keySet;
    }
    return this.provider;
  }
}
