import * as oidc from 'openid-client';
import type { Repositories } from '../db/repositories';
import type { OauthFlowsTable, ProviderKind, Team, TeamProvidersTable, User } from '../db/schema';
import type { Clock } from './clock';
import { randomToken, sha256 } from './crypto';

/** URL slug ↔ the provider names the API uses (`/api/external/AzureAD`, `externalAccounts[].providerName`). */
export const PROVIDER_NAMES: Record<ProviderKind, 'Google' | 'AzureAD' | 'Auth0' | 'Apple'> = {
  google: 'Google',
  azure: 'AzureAD',
  auth0: 'Auth0',
  apple: 'Apple',
};

/** What the screens call the team's Auth0 connection: its display name, else the provider's. */
export function auth0DisplayName(team: Pick<Team, 'auth0_display_name'>): string {
  return team.auth0_display_name ?? PROVIDER_NAMES.auth0;
}

export function kindOfName(name: string): ProviderKind | null {
  const entry = Object.entries(PROVIDER_NAMES).find(([, value]) => value === name);
  return entry ? (entry[0] as ProviderKind) : null;
}

/** Providers that answer by `response_mode=form_post` (a POST to the callback), as Apple does. */
export const FORM_POST: ReadonlySet<ProviderKind> = new Set(['apple']);

/** How this server authenticates at a provider's token endpoint: Apple takes the secret in the form. */
const clientAuth = (row: TeamProvidersTable) =>
  row.kind === 'apple' ? oidc.ClientSecretPost(row.client_secret) : oidc.ClientSecretBasic(row.client_secret);

/** A round trip lives ten minutes. */
export const FLOW_TTL_MS = 10 * 60_000;
export const FLOW_COOKIE = 'acct_oauth';

export interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  tenant: string | null;
}

/** Why a callback did not produce an identity. */
export class FlowError extends Error {}

/**
 * The relying-party side of provider sign-in: openid-client (authorization code flow, PKCE S256, state,
 * nonce, max_age) against each team's configured provider. Nothing about the provider is faked here —
 * in demo mode `demo:<kind>` issuers resolve to the stand-in providers, otherwise issuers are real URLs.
 */
export class ExternalSignIn {
  private readonly configs = new Map<string, Promise<oidc.Configuration>>();

  constructor(
    private readonly repos: Pick<Repositories, 'users' | 'teams' | 'identities' | 'oauthFlows'>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    /** `demo:<kind>` → the stand-in's issuer URL. */
    private readonly resolveIssuer: (issuer: string) => string | null,
  ) {}

  /**
   * Which user a provider identity signs in as (spec §8): the linked one; else, with link by e-mail, the
   * team member with that verified e-mail, linked now; else an error code. Two first sign-ins at once
   * both find nothing linked and both insert: the loser's insert does nothing (unique identity, one
   * identity per provider per user), and it reads again what the winner linked.
   */
  async resolveUser(
    teamId: string,
    kind: ProviderKind,
    identity: ProviderIdentity,
    linkByEmail: boolean,
  ): Promise<User | 'ForbiddenSignup' | 'UserAlreadyExists'> {
    const { users, identities } = this.repos;
    const provider = PROVIDER_NAMES[kind];
    const linkedUser = () => identities.findLinkedUser(teamId, provider, identity.subject);
    const linked = await linkedUser();
    if (linked) return linked;
    if (!linkByEmail || !identity.email || !identity.emailVerified) return 'ForbiddenSignup';
    const user = await users.findInTeamByEmail(teamId, identity.email);
    if (!user) return 'ForbiddenSignup';
    const other = await identities.subjectLinkedTo(user.id, provider);
    // A parallel first sign-in may have linked this very identity since the first read: that is fine.
    if (other === identity.subject) return user;
    // The account already has a different identity of this provider linked.
    if (other !== undefined) return 'UserAlreadyExists';
    const inserted = await identities.link({
      userId: user.id,
      teamId,
      provider,
      subject: identity.subject,
      userName: identity.email,
      now: this.clock.now(),
    });
    if (inserted) return user;
    // A parallel sign-in linked first: this identity to this user is fine, anything else is not.
    const now = await linkedUser();
    return now?.id === user.id ? now : 'UserAlreadyExists';
  }

  redirectUri(kind: ProviderKind): string {
    return `${this.publicUrl}/account/callback/${kind}`;
  }

  async providerFor(teamId: string, kind: ProviderKind): Promise<TeamProvidersTable | null> {
    return (await this.repos.teams.findProvider(teamId, kind)) ?? null;
  }

  private client(row: TeamProvidersTable): Promise<oidc.Configuration> {
    const issuer = this.resolveIssuer(row.issuer);
    if (!issuer)
      return Promise.reject(new FlowError(`provider ${row.kind} is not reachable from this server`));
    const key = `${issuer}\n${row.client_id}`;
    let pending = this.configs.get(key);
    if (!pending) {
      const insecure = issuer.startsWith('http:');
      pending = oidc
        .discovery(new URL(issuer), row.client_id, undefined, clientAuth(row), {
          // Plain http only for the loopback stand-ins; real providers are https.
          execute: insecure ? [oidc.allowInsecureRequests] : [],
        })
        .catch((error: unknown) => {
          // Unreachable or broken provider: the browser goes back with ProviderFailed, not a 500.
          throw new FlowError(`discovery of ${issuer} failed`, { cause: error });
        });
      this.configs.set(key, pending);
      pending.catch(() => this.configs.delete(key));
    }
    return pending;
  }

  /**
   * Start a round trip: store the flow (state hashed, PKCE verifier, nonce) bound to a fresh browser
   * cookie value, and return the provider's authorization URL and that cookie value.
   */
  async start(
    row: TeamProvidersTable,
    flow: Pick<OauthFlowsTable, 'mode' | 'user_id' | 'return_url' | 'max_age' | 'invitation_id'>,
  ): Promise<{ url: URL; browser: string }> {
    const config = await this.client(row);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    const browser = randomToken(32);
    const now = this.clock.now();
    await this.repos.oauthFlows.insert({
      state_hash: sha256(state),
      browser_hash: sha256(browser),
      team_id: row.team_id,
      kind: row.kind,
      mode: flow.mode,
      user_id: flow.user_id,
      code_verifier: verifier,
      nonce,
      return_url: flow.return_url,
      max_age: flow.max_age,
      created_at: now,
      expires_at: now + FLOW_TTL_MS,
      used_at: null,
      invitation_id: flow.invitation_id,
    });
    const parameters: Record<string, string> = {
      redirect_uri: this.redirectUri(row.kind),
      // Apple has no `profile` scope; it answers by form_post whenever a scope asks for data.
      scope: row.kind === 'apple' ? 'openid name email' : 'openid email profile',
      ...(FORM_POST.has(row.kind) ? { response_mode: 'form_post' } : {}),
      response_type: 'code',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    if (flow.max_age !== null) parameters.max_age = String(flow.max_age);
    return { url: oidc.buildAuthorizationUrl(config, parameters), browser };
  }

  /**
   * Take the flow a callback names, once: it must exist, belong to this browser, not be expired, and be
   * for this provider. Consumed by one conditional UPDATE, so a replayed callback finds nothing.
   */
  async claim(
    kind: ProviderKind,
    state: string | undefined,
    browser: string | undefined,
  ): Promise<OauthFlowsTable> {
    if (!state || !browser) throw new FlowError('missing state or browser binding');
    const now = this.clock.now();
    const flow = await this.repos.oauthFlows.findByState(sha256(state));
    if (!flow || flow.kind !== kind || flow.browser_hash !== sha256(browser) || flow.expires_at <= now) {
      throw new FlowError('unknown, foreign or expired sign-in attempt');
    }
    if (!(await this.repos.oauthFlows.markUsed(flow.state_hash, now)))
      throw new FlowError('sign-in attempt already used');
    return flow;
  }

  /**
   * Exchange the code (PKCE, state, nonce, max_age checked by openid-client) and read the identity.
   * `callback` is the address the provider sent the browser to, or — form_post — the POST it made.
   */
  async finish(
    flow: OauthFlowsTable,
    row: TeamProvidersTable,
    callback: URL | Request,
    state: string,
  ): Promise<ProviderIdentity> {
    const config = await this.client(row);
    let tokens;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: flow.code_verifier,
        expectedState: state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
        ...(flow.max_age !== null ? { maxAge: flow.max_age } : {}),
      });
    } catch (error) {
      throw new FlowError(
        `the provider's answer was refused: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const claims = tokens.claims();
    if (!claims?.sub) throw new FlowError('no subject in the ID token');
    return {
      subject: claims.sub,
      email: typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null,
      // Apple sends it as a string ("true") as often as a boolean.
      emailVerified: claims.email_verified === true || claims.email_verified === 'true',
      name: typeof claims.name === 'string' ? claims.name : null,
      tenant: typeof claims.tid === 'string' ? claims.tid : null,
    };
  }
}
