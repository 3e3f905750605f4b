import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, {
  type FastifyBodyParser,
  type FastifyInstance,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import { PWNED_PASSWORDS_DEFAULT, type Config } from './config';
import type { Db } from './db/connect';
import { createRepositories } from './db/repositories';
import type { Clock } from './lib/clock';
import type { KeyRing } from './lib/keys';
import type { ProviderKind } from './db/schema';
import { ExternalSignIn } from './lib/external';
import { Lockout } from './lib/lockout';
import { createMailer, type Mailer } from './lib/mailer';
import { PasswordHasher, scryptParams } from './lib/password';
import { RateLimiter } from './lib/rate-limit';
import { ProofOfWork } from './lib/proof-of-work';
import { SessionService } from './lib/session';
import { TokenService } from './lib/tokens';
import { TwoStepService } from './lib/two-step';
import { PasskeyService } from './lib/passkeys';
import { mailBrand } from './mail/compose';
import { XsrfService } from './lib/xsrf';
import { registerAuth } from './plugins/auth';
import { registerCors } from './plugins/cors';
import { registerSecurity } from './plugins/security';
import { pageRoutes } from './plugins/pages';
import { accountRoutes } from './routes/account';
import { appRoutes } from './routes/apps';
import { accountLifecycleRoutes } from './routes/account-lifecycle';
import { developerRoutes } from './routes/developer';
import { deviceRoutes } from './routes/device';
import { discoveryRoutes } from './routes/discovery';
import { externalRoutes } from './routes/external';
import type { StandIn } from './standin/providers';
import { invitationRoutes } from './routes/invitations';
import { joinRequestRoutes } from './routes/join-requests';
import { loginRoutes } from './routes/login';
import { challengeRoutes } from './routes/challenge';
import { passwordStrengthRoutes } from './routes/password-strength';
import { emailCodeRoutes } from './routes/email-code';
import { signUpRoutes } from './routes/sign-up';
import { oidcRoutes, registerOpenIdProvider } from './routes/oidc';
import { groupRoutes } from './routes/groups';
import { teamAppRoutes } from './routes/team-apps';
import { directoryRoutes } from './routes/directories';
import { scimRoutes } from './routes/scim';
import { SCIM_PREFIX } from './lib/scim';
import { connectionRoutes } from './routes/connections';
import { ssoRoutes } from './routes/sso';
import { domainRoutes } from './routes/domains';
import { domainChecker } from './lib/dns';
import { samlService } from './lib/saml';
import { oidcConnectionService } from './lib/oidc-connections';
import { DomainWatch } from './lib/domain-watch';
import { StreamDelivery } from './lib/event-streams';
import { eventStreamRoutes } from './routes/event-streams';
import { memberRoutes } from './routes/members';
import { searchRoutes } from './routes/search';
import { sessionRoutes } from './routes/sessions';
import { setupLinkRoutes } from './routes/setup-links';
import { outboxRoutes } from './routes/outbox';
import { passwordResetRoutes } from './routes/password-reset';
import { switcherRoutes } from './routes/switcher';
import { teamAdminRoutes } from './routes/team-admin';
import { teamEventRoutes } from './routes/team-events';
import { teamRoutes } from './routes/team';
import { MAX_PARAM_LENGTH } from '../../src/contract/schemas/team';
import { tokenRoutes } from './routes/token';
import { twoStepRoutes } from './routes/two-step';
import { passkeyRoutes } from './routes/passkeys';
import { userRoutes } from './routes/user';
import { userinfoRoutes } from './routes/userinfo';
import type { Services } from './services';
import { breachCheck } from './lib/pwned-passwords';
import { PasswordStrength } from './lib/password-strength';

export interface AppDeps {
  config: Config;
  db: Db;
  keys: KeyRing;
  clock: Clock;
  hasher?: PasswordHasher;
  /** Defaults to SMTP (SMTP_URL) or the outbox under DATA_DIR. */
  mailer?: Mailer;
  /** Demo mode: the stand-in providers that `demo:<kind>` issuers resolve to. */
  standIns?: Map<ProviderKind, StandIn>;
  /**
   * The stand-in Pwned Passwords range API (demo mode, the tests): new passwords are checked there
   * when PWNED_PASSWORDS_URL is unset.
   */
  pwnedStandInUrl?: string;
  logger?: FastifyServerOptions['logger'];
  /** Told of every route as it is added (tests use it to check a rule holds on every route). */
  onRoute?: (route: RouteOptions) => void;
}

/** Log lines never carry secrets: cookies, tokens and passwords are redacted. */
export const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
];

/** Build the identity server (not listening yet). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, keys, clock } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel, redact: REDACT },
    trustProxy: false,
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Strict schemas: unknown fields are errors, not silently dropped; no type coercion of JSON bodies.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });

  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  keys.start(db.changes);
  app.addHook('onClose', async () => keys.stop());

  // Graceful shutdown: Node's server.close() drops only the connections idle at that moment; a request
  // in flight then would leave its keep-alive connection open (for keepAliveTimeout, 72 s) and hold the
  // shutdown up. Answers sent while closing say `Connection: close`, so each such connection ends with
  // its answer.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  const repos = createRepositories(db);
  const checkDomain = domainChecker(config.dnsServers);
  const mailer = deps.mailer ?? createMailer(config.smtpUrl, config.dataDir, config.mailFrom, app.log);
  const services: Services = {
    config,
    repos,
    clock,
    keys,
    hasher:
      deps.hasher ??
      new PasswordHasher(config.hashConcurrency, config.hashQueue, scryptParams(config.hashCost)),
    sessions: new SessionService(repos.sessions, clock),
    tokens: new TokenService(keys, config.publicUrl, config.accessTokenAudience, clock),
    xsrf: new XsrfService(keys.hmacSecret),
    lockout: new Lockout(repos.loginFailures, clock),
    limiter: new RateLimiter(repos.rateLimits, clock),
    proofOfWork: new ProofOfWork(keys.hmacSecret, repos.usedChallenges, clock),
    twoStep: new TwoStepService(repos.twoStep, clock, keys.sealer, mailBrand(config.brand).name),
    passkeys: new PasskeyService(
      repos.passkeys,
      clock,
      config.publicUrl,
      config.corsOrigins,
      mailBrand(config.brand).name,
    ),
    mailer,
    checkDomain,
    domainWatch: new DomainWatch({ config, repos, clock, checkDomain, mailer, log: app.log }),
    streams: new StreamDelivery({ config, repos, clock, sealer: keys.sealer, mailer, log: app.log }),
    saml: samlService({ repos, clock, publicUrl: config.publicUrl }),
    oidcConnections: oidcConnectionService({
      repos,
      clock,
      publicUrl: config.publicUrl,
      sealer: keys.sealer,
      privateAddresses: config.outboundPrivateAddresses,
    }),
    breachCheck: breachCheck(config.pwnedPasswordsUrl ?? deps.pwnedStandInUrl ?? PWNED_PASSWORDS_DEFAULT),
    passwordStrength: new PasswordStrength(),
    external: new ExternalSignIn(repos, clock, config.publicUrl, (issuer) => {
      if (!issuer.startsWith('demo:')) return issuer;
      // Stand-ins exist only in demo mode; outside it a demo: issuer is unusable.
      return (config.demo && deps.standIns?.get(issuer.slice(5) as ProviderKind)?.issuer) || null;
    }),
  };
  app.decorate('services', services);
  app.addHook('onReady', async () => services.domainWatch.start());
  app.addHook('onClose', async () => services.domainWatch.stop());
  app.addHook('onReady', async () => services.streams.start());
  app.addHook('onClose', async () => services.streams.stop());
  app.addHook('onClose', async () => services.passwordStrength.close());

  // JSON and url-encoded forms only: text/plain and everything else get 415.
  app.removeContentTypeParser('text/plain');
  // JSON must be valid UTF-8: the default parser decodes bad bytes to U+FFFD, which would then be stored
  // (a name of replacement characters) or compared (a password that can never match).
  const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  const strictJson: FastifyBodyParser<Buffer> = (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body);
    } catch {
      done(Object.assign(new Error('body is not valid UTF-8'), { statusCode: 400 }), undefined);
      return;
    }
    parseJson(request, text, done);
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, strictJson);
  // SCIM's own type (RFC 7644 §3.1) is JSON, read the same way.
  app.addContentTypeParser('application/scim+json', { parseAs: 'buffer' }, strictJson);
  // Cookies are parsed when a route asks for them (cookiesOf in lib/cookies.ts), not on every
  // request: the bearer routes, the busiest, read none.
  await app.register(fastifyCookie, { hook: false });
  await app.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
  registerCors(app, config.corsOrigins);
  registerSecurity(app, config, () => closing);
  registerAuth(app);
  await registerOpenIdProvider(app);

  await app.register(discoveryRoutes);
  await app.register(challengeRoutes);
  await app.register(passwordStrengthRoutes);
  await app.register(userinfoRoutes);
  await app.register(teamRoutes);
  await app.register(teamAdminRoutes);
  await app.register(teamEventRoutes);
  await app.register(invitationRoutes);
  await app.register(joinRequestRoutes);
  await app.register(memberRoutes);
  await app.register(groupRoutes);
  await app.register(teamAppRoutes);
  await app.register(directoryRoutes);
  await app.register(eventStreamRoutes);
  await app.register(scimRoutes, { prefix: SCIM_PREFIX });
  await app.register(domainRoutes);
  await app.register(connectionRoutes);
  await app.register(ssoRoutes);
  await app.register(setupLinkRoutes);
  await app.register(searchRoutes);
  await app.register(switcherRoutes);
  await app.register(accountRoutes);
  await app.register(appRoutes);
  await app.register(loginRoutes);
  await app.register(twoStepRoutes);
  await app.register(passkeyRoutes);
  await app.register(passwordResetRoutes);
  await app.register(emailCodeRoutes);
  await app.register(signUpRoutes);
  await app.register(userRoutes);
  await app.register(sessionRoutes);
  await app.register(accountLifecycleRoutes);
  await app.register(externalRoutes);
  await app.register(developerRoutes);
  await app.register(deviceRoutes);
  if (config.demo) await app.register(outboxRoutes);
  await app.register(tokenRoutes);
  await app.register(oidcRoutes);
  await app.register(pageRoutes);
  return app;
}
