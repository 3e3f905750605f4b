import type { Config } from './config';
import type { Repositories } from './db/repositories';
import type { Clock } from './lib/clock';
import type { KeyRing } from './lib/keys';
import type { ExternalSignIn } from './lib/external';
import type { Lockout } from './lib/lockout';
import type { Mailer } from './lib/mailer';
import type { PasswordHasher } from './lib/password';
import type { RateLimiter } from './lib/rate-limit';
import type { SessionService } from './lib/session';
import type { TokenService } from './lib/tokens';
import type { TwoStepService } from './lib/two-step';
import type { PasskeyService } from './lib/passkeys';
import type { OpenIdProvider } from './lib/openid-provider';
import type { XsrfService } from './lib/xsrf';
import type { DomainChecker } from './lib/dns';
import type { DomainWatch } from './lib/domain-watch';
import type { StreamDelivery } from './lib/event-streams';
import type { SamlService } from './lib/saml';
import type { OidcConnectionService } from './lib/oidc-connections';
import type { ProofOfWork } from './lib/proof-of-work';
import type { BreachCheck } from './lib/pwned-passwords';
import type { PasswordStrength } from './lib/password-strength';

/** Everything a route needs, built once at start and reachable as `app.services`. */
export interface Services {
  config: Config;
  /** Every query of the server (db/): routes and services read and write through these. */
  repos: Repositories;
  clock: Clock;
  /** The signing keys and the anti-forgery secret every node shares (lib/keys.ts). */
  keys: KeyRing;
  hasher: PasswordHasher;
  sessions: SessionService;
  tokens: TokenService;
  xsrf: XsrfService;
  lockout: Lockout;
  limiter: RateLimiter;
  mailer: Mailer;
  external: ExternalSignIn;
  /** The authenticator app, recovery codes and pending second steps. */
  twoStep: TwoStepService;
  /** WebAuthn ceremonies (registration and sign-in). */
  passkeys: PasskeyService;
  /** Looks up the DNS record that proves a team's domain (lib/dns.ts). */
  checkDomain: DomainChecker;
  /** The daily lookup of every team's domains, and the owners' mail when one is lost. */
  domainWatch: DomainWatch;
  /** The delivery of the teams' events to their streaming endpoints (every node runs it). */
  streams: StreamDelivery;
  /** The service provider side of the teams' SAML connections. */
  saml: SamlService;
  oidcConnections: OidcConnectionService;
  /** Proof-of-work challenges, each solution accepted once (lib/proof-of-work.ts). */
  proofOfWork: ProofOfWork;
  /** Whether a new password is in a known breach (the Pwned Passwords range API, k-anonymity). */
  breachCheck: BreachCheck;
  /** How hard a new password is to guess, for the meter (zxcvbn, on a worker thread). */
  passwordStrength: PasswordStrength;
}

/** How a route takes its body: checked before parsing errors reach the handler (415 otherwise). */
export type BodyKind = 'json' | 'form' | 'scim' | 'none';

/**
 * Who may call a route, enforced by the auth hook (plugins/auth.ts): a valid access token of a member
 * (`bearer`), a live session cookie (`session`), a team API client's token (`client`: the client
 * credentials grant, with the `scope` the route names), a team directory's token (`directory`: the SCIM
 * routes only), or nobody in particular (`none`: public, or the handler reads an optional session
 * itself). Every route declares one; the server refuses to start otherwise.
 */
export type AuthRule = 'bearer' | 'session' | 'client' | 'directory' | 'none';

/**
 * What a `bearer` route asks of its caller beyond a valid token: a team admin (OWNER or ADMIN) or an
 * OWNER of the token's team. Checked by the auth hook; a member without it gets 403.
 */
export type RoleRule = 'admin' | 'owner';

/** Where a `session` route sends a caller without a session: to sign in, then back to `returnUrl`. */
export interface SignInRedirect {
  returnUrl: string;
  /** Only page navigations (`text/html` in Accept) are sent; other callers get 401 `{message}`. */
  pagesOnly?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** The OpenID Provider (routes/oidc.ts). */
    oidc: OpenIdProvider;
  }
  interface FastifyContextConfig {
    /** The body kind the route accepts. */
    body?: BodyKind;
    /** The route serves an HTML page and reads nothing of its address or body (a NUL there is harmless). */
    page?: boolean;
    /** Who may call the route. */
    auth?: AuthRule;
    /** A `session` route's answer to a caller without one; without it, 401 `{message}`. */
    signIn?: SignInRedirect;
    /**
     * `flow-bound`: a provider's `form_post` answer (a cross-site POST from the provider's page) is
     * exempt from the anti-forgery rule: the flow it names must belong to the browser's own flow cookie
     * and its state, both single use, which is what the token would prove. `provider`: the OpenID
     * Provider's own addresses, whose forms carry the provider's own anti-forgery token.
     * `saml-request`: a SAML identity provider's answer (a cross-site POST from its page) acts only
     * through the single-use request this site sent, named inside the signed assertion.
     */
    forgery?: 'flow-bound' | 'provider' | 'saml-request';
    /** A `bearer` route for team admins or owners only. */
    role?: RoleRule;
    /**
     * An admin route (`bearer` with a `role`) that a setup link's token for the same team may call too
     * (the team's domains and connections): docs/decisions/setup-links.md.
     */
    setup?: boolean;
    /** The scope a `client` route requires of the token. */
    scope?: string;
    /**
     * The error code a schema refusal of a body field carries (`{message, field, code}`), by field, so a
     * screen can show it translated at that field.
     */
    invalid?: Record<string, string>;
  }
}
