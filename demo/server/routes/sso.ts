import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import {
  samlAnswerSchema,
  samlMetadataSchema,
  ssoBeginSchema,
  ssoStartSchema,
  ssoTeamSchema,
  oidcCallbackSchema,
  type ConnectionTest,
} from '../../../src/contract/schemas/connections';
import type { Permission } from '../../../src/contract/permissions';
import type { TeamConnectionsTable } from '../db/schema';
import { recordFailedSignIn } from '../lib/activity';
import { cookiesOf } from '../lib/cookies';
import { randomToken, safeEqual, sha256 } from '../lib/crypto';
import { finishFederatedSignIn, signInFailed } from '../lib/federated-sign-in';
import { requestLanguage } from '../lib/language';
import { cleanName } from '../lib/names';
import { normaliseEmail, normaliseTeam } from '../lib/normalise';
import { OidcRefused, type OidcOutcome } from '../lib/oidc-connections';
import {
  OIDC_CALLBACK_PATH,
  serviceProviderUrls,
  TEST_RELAY,
  type SamlClaims,
  type SamlOutcome,
} from '../lib/saml';
import { cookieOptions } from '../lib/session';
import { returnTarget, StartTickets } from '../lib/start-ticket';

const NOT_FOUND = { message: 'no such connection', code: 'notFound' } as const;
/** The cookie that binds a sign-in's request to the browser that started it. */
const SSO_COOKIE = 'acct_sso';

/** The person's name as the provider sent it, if it makes a usable one. */
function nameOf(claims: SamlClaims): string | null {
  const joined = [claims.givenName, claims.familyName].filter(Boolean).join(' ');
  if (!joined) return null;
  const cleaned = cleanName(joined);
  return 'name' in cleaned ? cleaned.name : null;
}

/**
 * This site as the relying party of each team's connections: signing in through the connection an
 * address's domain names (`POST /account/sso/start`, then `GET /account/sso/begin` — two steps, as for
 * a provider, so that it starts from a page whose CSP names only this site), the providers' answers (a
 * test's or a sign-in's: SAML's `POST /saml/:id/acs`, OpenID Connect's `GET /sso/callback`), the team
 * a work address's domain names, and the SAML metadata an admin gives the provider.
 */
export const ssoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, saml, oidcConnections, config } = app.services;
  const origin = new URL(config.publicUrl).origin;
  const tickets = new StartTickets(app.services.keys.hmacSecret, clock);
  // Sent only to where the connection's provider answers: SAML's ACS, or OpenID Connect's redirect URI.
  const cookieFor = (protocol: 'saml' | 'oidc') => ({
    ...cookieOptions(config, true),
    path: protocol === 'saml' ? '/saml' : OIDC_CALLBACK_PATH,
    maxAge: 600,
  });

  /** The enabled connection the address's domain signs in through, at the team, if any. */
  async function connectionFor(teamId: string, email: string) {
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const [route] = await repos.domains.routes(teamId, domain);
    return route ? repos.connections.find(route.connection_id) : undefined;
  }

  app.post(
    '/account/sso/start',
    { config: { body: 'json', auth: 'none' }, schema: ssoStartSchema },
    async (request, reply) => {
      const body = request.body;
      const team = await repos.teams.findByName(normaliseTeam(body.teamName));
      const email = normaliseEmail(body.email);
      const connection = team && !team.disabled ? await connectionFor(team.id, email) : undefined;
      // Said of the domain, never of the address: the same for every address there.
      if (!team || !connection)
        return reply
          .code(404)
          .send({ message: 'this address does not sign in through single sign-on', code: 'noConnection' });
      const maxAge = body.maxAge && /^\d{1,9}$/.test(body.maxAge) ? Number(body.maxAge) : null;
      const ticket = await tickets.issue({
        kind: 'sso',
        teamId: team.id,
        returnUrl: returnTarget(body.returnUrl, origin, config.corsOrigins),
        maxAge,
        invitationId: null,
        connectionId: connection.id,
      });
      const location = new URL('/account/sso/begin', config.publicUrl);
      location.searchParams.set('ticket', ticket);
      return { location: location.href };
    },
  );

  // What the domain's DNS record and the team's public details already say: which team it signs in to.
  app.get(
    '/account/sso/team',
    { config: { auth: 'none' }, schema: ssoTeamSchema },
    async (request, reply) => {
      const name = await repos.domains.teamRoutedBy(request.query.domain.trim().toLowerCase());
      if (!name)
        return reply.code(404).send({ message: 'no team signs in through this domain', code: 'noTeam' });
      return { name };
    },
  );

  app.get(
    '/account/sso/begin',
    { config: { auth: 'none' }, schema: ssoBeginSchema },
    async (request, reply) => {
      const start = await tickets.read(request.query.ticket, 'sso');
      const team = start ? await repos.teams.findById(start.teamId) : undefined;
      const connection = start?.connectionId ? await repos.connections.find(start.connectionId) : undefined;
      if (!start || !team || team.disabled || !connection?.enabled || connection.team_id !== team.id)
        return signInFailed(reply, team?.name ?? null, 'SsoFailed', start?.returnUrl ?? null);
      const browser = randomToken(32);
      const options = {
        signIn: { browserHash: sha256(browser), returnUrl: start.returnUrl },
        forceAuthn: start.maxAge !== null,
      };
      let url;
      try {
        url =
          connection.protocol === 'saml'
            ? await saml.start(connection, 'signIn', options)
            : await oidcConnections.start(connection, 'signIn', options);
      } catch (error) {
        if (!(error instanceof OidcRefused)) throw error;
        request.log.warn({ connection: connection.id, err: error }, 'single sign-on could not start');
        return signInFailed(reply, team.name, 'SsoFailed', start.returnUrl);
      }
      reply.setCookie(SSO_COOKIE, browser, cookieFor(connection.protocol));
      return reply.redirect(url, 303);
    },
  );

  /** A test's answer: its result, passed or refused, kept for the Single sign-on screen; no session. */
  async function recordTest(
    reply: FastifyReply,
    row: TeamConnectionsTable,
    outcome: SamlOutcome | OidcOutcome,
  ) {
    const at = new Date(clock.now()).toISOString();
    const result: ConnectionTest = outcome.ok
      ? { at, ok: true, problem: null, detail: null, claims: outcome.claims }
      : { at, ok: false, problem: outcome.problem, detail: outcome.detail, claims: null };
    await repos.connections.recordTest(row.id, result, outcome.ok, clock.now());
    return reply.redirect(
      `${config.publicUrl}/manage/team/connections?test=${encodeURIComponent(row.id)}`,
      303,
    );
  }

  /**
   * A sign-in's answer, accepted by the SAML checks: from the browser that asked (its cookie), through
   * an enabled connection that the address's domain signs in through; then the member — found, linked
   * or made just in time — signs in, under the team's two-step rule.
   */
  async function signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    row: TeamConnectionsTable,
    claims: SamlClaims,
    bound: { browserHash: string | null; returnUrl: string | null } | null,
  ) {
    const team = await repos.teams.findById(row.team_id);
    if (!team) throw new Error('the connection names no team');
    const returnUrl = bound?.returnUrl ?? null;
    const refuse = (code: string, why: string) => {
      request.log.info({ connection: row.id, why }, 'single sign-on refused');
      return signInFailed(reply, team.name, code, returnUrl);
    };
    reply.clearCookie(SSO_COOKIE, cookieFor(row.protocol));
    const cookie = cookiesOf(request)[SSO_COOKIE];
    if (bound && (!cookie || !bound.browserHash || !safeEqual(sha256(cookie), bound.browserHash)))
      return refuse('SsoFailed', 'the answer came to another browser than the one that asked');
    if (team.disabled) return refuse('SsoFailed', 'the team is turned off');
    if ((await connectionFor(team.id, claims.email))?.id !== row.id)
      return refuse('InvalidTenant', 'the address does not sign in through this connection');
    const outcome = await repos.ssoMembers.signIn({
      teamId: team.id,
      connectionId: row.id,
      subject: claims.id,
      email: claims.email,
      name: nameOf(claims),
      groups: JSON.parse(row.mapping).groups ? claims.groups : null,
      permissions: JSON.parse(row.default_permissions) as Permission[],
      language: requestLanguage(request),
      now: clock.now(),
    });
    if (!outcome.ok)
      return refuse(outcome.reason === 'seatLimit' ? 'SeatLimit' : 'UserAlreadyExists', outcome.reason);
    const { user } = outcome;
    // The company's provider vouched for the person; an administrator's word here still stands. The
    // lockout is not asked: it guards the password, which strangers can try, not this.
    if (user.disabled_at !== null) {
      await recordFailedSignIn(request, user.id, 'sso');
      return refuse('UserDisabled', 'the member is turned off');
    }
    if (user.locked) {
      await recordFailedSignIn(request, user.id, 'sso');
      return refuse('UserLocked', 'an administrator locked the member');
    }
    return finishFederatedSignIn(request, reply, team, user.id, returnUrl, 'sso');
  }

  // The provider's answer: a cross-site form POST from its page, so outside the anti-forgery rule
  // (`saml-request`): what it can do is bound by the signed answer to a request this site sent — a
  // test's named by its RelayState, a sign-in's bound to the browser's cookie — or, for a connection
  // that accepts answers unasked, by the signed answer alone.
  app.post(
    '/saml/:id/acs',
    { config: { auth: 'none', body: 'form', forgery: 'saml-request' }, schema: samlAnswerSchema },
    async (request, reply) => {
      const row = await repos.connections.find(request.params.id);
      if (!row) return reply.code(404).send(NOT_FOUND);
      const now = clock.now();
      const { SAMLResponse, RelayState } = request.body;
      const testRequest = RelayState?.startsWith(TEST_RELAY) ? RelayState.slice(TEST_RELAY.length) : null;
      const isTest =
        testRequest !== null && (await repos.connections.pending(testRequest, row.id, 'test', now));
      const outcome = await saml.answer(row, SAMLResponse);
      if (isTest || (outcome.ok && outcome.purpose === 'test')) {
        // Refused before its request was spent: the test is over all the same.
        if (isTest) await repos.connections.spendRequest(testRequest, row.id, now);
        return recordTest(reply, row, outcome);
      }
      const team = await repos.teams.findById(row.team_id);
      if (!outcome.ok) {
        request.log.info({ connection: row.id, problem: outcome.problem }, 'SAML answer refused');
        return signInFailed(reply, team?.name ?? null, 'SsoFailed', null);
      }
      if (!row.enabled) return signInFailed(reply, team?.name ?? null, 'SsoFailed', null);
      return signIn(request, reply, row, outcome.claims, outcome.request);
    },
  );

  // An OpenID Connect provider's answer (a redirect): its state names the request and so the
  // connection; a test's result is kept, a sign-in's signs the member in as a SAML answer would.
  app.get(
    OIDC_CALLBACK_PATH,
    { config: { auth: 'none' }, schema: oidcCallbackSchema },
    async (request, reply) => {
      const answered = await oidcConnections.answer(new URL(request.url, config.publicUrl));
      if (!answered) return signInFailed(reply, null, 'SsoFailed', null);
      const { connection, purpose, outcome, request: bound } = answered;
      if (purpose === 'test') return recordTest(reply, connection, outcome);
      const team = await repos.teams.findById(connection.team_id);
      if (!outcome.ok || !connection.enabled) {
        request.log.info(
          { connection: connection.id, problem: outcome.ok ? 'off' : outcome.problem },
          'OpenID Connect answer refused',
        );
        return signInFailed(reply, team?.name ?? null, 'SsoFailed', bound.returnUrl);
      }
      return signIn(request, reply, connection, outcome.claims, bound);
    },
  );

  // This site as the connection's service provider, for the provider's own setup (public, like any
  // SAML metadata: it holds only addresses).
  app.get(
    '/saml/:id/metadata',
    { config: { auth: 'none' }, schema: samlMetadataSchema },
    async (request, reply) => {
      const row = await repos.connections.find(request.params.id);
      if (!row) return reply.code(404).send(NOT_FOUND);
      const { entityId, acsUrl } = serviceProviderUrls(config.publicUrl, row.id);
      const xml = generateServiceProviderMetadata({
        issuer: entityId,
        callbackUrl: acsUrl,
        wantAssertionsSigned: true,
        identifierFormat: null,
      });
      return reply.type('application/samlmetadata+xml').send(xml);
    },
  );
};
