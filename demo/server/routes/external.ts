import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { OauthFlowsTable, ProviderKind, Team, User } from '../db/schema';
import {
  FLOW_COOKIE,
  FlowError,
  FORM_POST,
  kindOfName,
  PROVIDER_NAMES,
  type ProviderIdentity,
} from '../lib/external';
import { GONE_MESSAGE, InvitationLinks } from '../lib/invitation-links';
import { requestLanguage } from '../lib/language';
import { cleanName } from '../lib/names';
import { normaliseTeam } from '../lib/normalise';
import { returnTarget, StartTickets, type StartRequest } from '../lib/start-ticket';
import { cookiesOf } from '../lib/cookies';
import { callerOf, signedInSession } from '../plugins/auth';
import { cookieOptions, sessionOf } from '../lib/session';
import { finishFederatedSignIn, signInFailed } from '../lib/federated-sign-in';
import { ssoRequired } from '../lib/sso-rule';
import { recordActivity } from '../lib/activity';
import {
  callbackFormSchema,
  callbackSchema,
  type CallbackQuery,
  linkSchema,
  type ProviderParams,
  providerStartFormSchema,
  providerStartSchema,
  providerTicketSchema,
  unlinkSchema,
} from '../../../src/contract/schemas/external';

/**
 * Spec §8: the codes a failed provider sign-in sends back to the sign-in screen; `InvitationGone`: the
 * invitation the round trip was to accept was used, revoked, resent or expired meanwhile.
 */
type ErrorCode =
  | 'UserLocked'
  | 'UserDisabled'
  | 'UserAlreadyExists'
  | 'ForbiddenSignup'
  | 'InvalidTenant'
  | 'ProviderFailed'
  | 'InvitationGone'
  | 'SsoRequired';

const KINDS = ['google', 'azure', 'auth0', 'apple'] as const;
const enabledColumn = {
  google: 'google_enabled',
  azure: 'azure_enabled',
  auth0: 'auth0_enabled',
  apple: 'apple_enabled',
} as const;

/** The name in Apple's `user` form field (`{"name":{"firstName","lastName"}}`), if it has one. */
function appleName(user: string | undefined): string | null {
  if (!user) return null;
  try {
    const parsed = JSON.parse(user) as { name?: { firstName?: unknown; lastName?: unknown } };
    const parts = [parsed.name?.firstName, parsed.name?.lastName].filter((p) => typeof p === 'string' && p);
    return parts.length ? parts.join(' ') : null;
  } catch {
    return null;
  }
}

type ProviderStart = StartRequest & { kind: ProviderKind };

type ProviderRequest = FastifyRequest<{ Params: Static<typeof ProviderParams> }>;

/** The new member's name: the provider's, if it is a usable one, else the e-mail address's local part. */
function cleanedName(name: string | null, email: string): string {
  const cleaned = name ? cleanName(name) : null;
  if (cleaned && 'name' in cleaned) return cleaned.name;
  const local = cleanName(email.split('@')[0] ?? email);
  return 'name' in local ? local.name : email.slice(0, 50);
}

/**
 * The provider an address names (`Google`, `AzureAD`, `Auth0`): an unknown one is 404, and answered
 * before the auth hook asks who the caller is (it runs after a route's own preHandlers).
 */
async function knownProvider(request: ProviderRequest, reply: FastifyReply) {
  if (!kindOfName(request.params.provider)) return reply.code(404).send({ message: 'not found' });
}

/** The provider named by the address of a route that `knownProvider` guards. */
function providerOf(request: ProviderRequest): ProviderKind {
  const kind = kindOfName(request.params.provider);
  if (!kind) throw new Error(`${request.routeOptions.url}: not guarded by knownProvider`);
  return kind;
}

/**
 * Sign-in and account linking with the team's external providers (spec §6–§8, design §4):
 * `POST /account/{google,azure,auth0}` (or its two steps, `POST` then `GET /account/{kind}/start`) →
 * the provider → `GET /account/callback/{kind}` → signed in (or back to the sign-in screen with an
 * Error code); `POST /api/external/{Google,AzureAD,Auth0}` links an
 * identity to the signed-in user; `DELETE /api/user/password/{…}` unlinks, never the last way in.
 */
export const externalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, external, config, clock, lockout } = app.services;
  const invitations = new InvitationLinks(repos.invitations, clock);
  const origin = new URL(config.publicUrl).origin;
  const flowCookie = { ...cookieOptions(config, true), path: '/account/callback', maxAge: 600 };
  const tickets = new StartTickets(app.services.keys.hmacSecret, clock);

  const kindOf = (value: string): ProviderKind | null =>
    (KINDS as readonly string[]).includes(value) ? (value as ProviderKind) : null;

  async function begin(
    request: FastifyRequest,
    reply: FastifyReply,
    team: { id: string; name: string },
    kind: ProviderKind,
    flow: {
      mode: 'login' | 'link';
      user_id: string | null;
      return_url: string | null;
      max_age: number | null;
      invitation_id?: string | null;
    },
  ) {
    const row = await external.providerFor(team.id, kind);
    if (!row)
      return reply.code(400).send({ message: `this team has no ${PROVIDER_NAMES[kind]} sign-in configured` });
    let started;
    try {
      started = await external.start(row, { ...flow, invitation_id: flow.invitation_id ?? null });
    } catch (error) {
      if (!(error instanceof FlowError)) throw error;
      request.log.warn({ err: error }, 'provider unavailable');
      return fail(reply, team.name, flow.mode, 'ProviderFailed', flow.return_url);
    }
    const { url, browser } = started;
    reply.setCookie(FLOW_COOKIE, browser, flowCookie);
    return reply.redirect(url.href, 303);
  }

  /**
   * A sign-in start as asked for (by either route), checked: a known provider, a team that offers it,
   * where to come back to, and max_age. Otherwise the error to answer.
   */
  async function checkedStart(
    provider: string,
    body: { teamName: string; returnUrl?: string; maxAge?: string },
  ): Promise<{ team: Team; start: ProviderStart } | { status: 400 | 404; message: string }> {
    const kind = kindOf(provider);
    if (!kind) return { status: 404, message: 'not found' };
    const team = await repos.teams.findByName(normaliseTeam(body.teamName));
    if (!team || team.disabled || !team[enabledColumn[kind]])
      return { status: 400, message: `${PROVIDER_NAMES[kind]} sign-in is not enabled for this team` };
    const maxAge = body.maxAge && /^\d{1,9}$/.test(body.maxAge) ? Number(body.maxAge) : null;
    const returnUrl = returnTarget(body.returnUrl, origin, config.corsOrigins);
    return { team, start: { kind, teamId: team.id, returnUrl, maxAge, invitationId: null } };
  }

  const beginLogin = (request: FastifyRequest, reply: FastifyReply, team: Team, start: ProviderStart) =>
    begin(request, reply, team, start.kind, {
      mode: 'login',
      user_id: null,
      return_url: start.returnUrl,
      max_age: start.maxAge,
      invitation_id: start.invitationId,
    });

  // The form post of spec §7: the browser follows the answer to the provider. A page whose CSP
  // form-action names only the issuer blocks that redirect; the elements use the two steps below.
  app.post(
    '/account/:provider',
    { config: { body: 'form', auth: 'none' }, schema: providerStartFormSchema },
    async (request, reply) => {
      const checked = await checkedStart(request.params.provider, request.body);
      if ('status' in checked) return reply.code(checked.status).send({ message: checked.message });
      return beginLogin(request, reply, checked.team, checked.start);
    },
  );

  // Step one (a call, under the anti-forgery rule): check the request, answer the issuer address that
  // starts it, with a short-lived signed ticket.
  app.post(
    '/account/:provider/start',
    { config: { body: 'json', auth: 'none' }, schema: providerStartSchema },
    async (request, reply) => {
      const checked = await checkedStart(request.params.provider, request.body);
      if ('status' in checked) return reply.code(checked.status).send({ message: checked.message });
      const start = checked.start;
      const invitation = request.body.invitation;
      if (invitation) {
        // The link is checked now; the ticket (and then the flow) carries only the invitation's id.
        const link = await invitations.checkLink({
          teamName: checked.team.name,
          invitationId: invitation.id,
          token: invitation.token,
        });
        if ('gone' in link)
          return reply.code(410).send({ message: GONE_MESSAGE, code: 'gone', reason: link.gone });
        start.invitationId = link.found.invitation.id;
      }
      const location = new URL(`/account/${start.kind}/start`, config.publicUrl);
      location.searchParams.set('ticket', await tickets.issue(start));
      return { location: location.href };
    },
  );

  // Step two (a top-level navigation): start the round trip the ticket describes.
  app.get(
    '/account/:provider/start',
    { config: { auth: 'none' }, schema: providerTicketSchema },
    async (request, reply) => {
      const kind = kindOf(request.params.provider);
      if (!kind) return reply.code(404).send({ message: 'not found' });
      const start = await tickets.read(request.query.ticket, kind);
      const team = start ? await repos.teams.findById(start.teamId) : undefined;
      if (!start || !team) return fail(reply, null, 'login', 'ProviderFailed', null);
      if (team.disabled || !team[enabledColumn[kind]])
        return fail(reply, team.name, 'login', 'ProviderFailed', start.returnUrl);
      return beginLogin(request, reply, team, start);
    },
  );

  app.post(
    '/api/external/:provider',
    {
      config: { body: 'form', auth: 'session', signIn: { returnUrl: '/manage' } },
      schema: linkSchema,
      preHandler: knownProvider,
    },
    async (request, reply) => {
      const kind = providerOf(request);
      const session = signedInSession(request);
      const user = await repos.users.findMember(session.user_id);
      if (!user) throw new Error('the signed-in user is gone');
      return begin(request, reply, { id: user.teamId, name: user.teamName }, kind, {
        mode: 'link',
        user_id: user.userId,
        return_url: '/manage',
        max_age: null,
      });
    },
  );

  /**
   * Where a failed round trip lands: the team's sign-in screen with the error, keeping the ReturnUrl
   * (a path on the issuer; a partner page's address cannot be one) — or the manage area for linking.
   */
  const fail = (
    reply: FastifyReply,
    teamName: string | null,
    mode: 'login' | 'link',
    code: ErrorCode,
    returnUrl: string | null,
  ) => {
    reply.clearCookie(FLOW_COOKIE, flowCookie);
    if (mode === 'link') return reply.redirect(`/manage?${new URLSearchParams({ Error: code })}`, 303);
    return signInFailed(reply, teamName, code, returnUrl);
  };

  /**
   * A round trip started from an invitation link: the provider's verified e-mail must be the invited
   * address (case-insensitive), else `ForbiddenSignup` — the invitation stays open for the right
   * account. Then the invitee joins with the identity linked and no password, and is signed in.
   */
  async function joinByInvitation(
    request: FastifyRequest,
    reply: FastifyReply,
    team: Team,
    kind: ProviderKind,
    flow: OauthFlowsTable,
    identity: ProviderIdentity,
  ) {
    const invitationId = flow.invitation_id!;
    const invited = await invitations.emailOf(invitationId);
    if (!invited || !identity.emailVerified || identity.email !== invited)
      return fail(reply, team.name, 'login', 'ForbiddenSignup', flow.return_url);
    const provider = PROVIDER_NAMES[kind];
    if ((await repos.identities.ownerOf(team.id, provider, identity.subject)) !== undefined)
      return fail(reply, team.name, 'login', 'UserAlreadyExists', flow.return_url);
    const outcome = await invitations.accept(invitationId, {
      name: cleanedName(identity.name, invited),
      passwordHash: null,
      language: requestLanguage(request),
      now: clock.now(),
      identity: { provider, subject: identity.subject, userName: invited },
    });
    if (!outcome.ok) {
      const code = {
        gone: 'InvitationGone',
        alreadyMember: 'UserAlreadyExists',
        seatLimit: 'ForbiddenSignup',
      } as const;
      return fail(reply, team.name, 'login', code[outcome.reason], flow.return_url);
    }
    reply.clearCookie(FLOW_COOKIE, flowCookie);
    // Joining is a sign-in: the team's two-step rule holds before any session exists.
    return finishFederatedSignIn(request, reply, team, outcome.userId, flow.return_url ?? '/manage', kind);
  }

  async function signInUser(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    returnUrl: string | null,
    kind: ProviderKind,
  ) {
    reply.clearCookie(FLOW_COOKIE, flowCookie);
    const team = await repos.teams.findById(user.team_id);
    if (!team) throw new Error('the signed-in user has no team');
    return finishFederatedSignIn(request, reply, team, user.id, returnUrl, kind);
  }

  /**
   * The provider's answer, by redirect (GET, the query) or by form_post (POST, the form: Apple), for a
   * round trip of this browser: claimed once, then the code exchanged and the identity used.
   */
  async function finishCallback(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: ProviderKind,
    answer: Static<typeof CallbackQuery> & { user?: string },
    callback: URL | Request,
  ) {
    let flow;
    try {
      flow = await external.claim(kind, answer.state, cookiesOf(request)[FLOW_COOKIE]);
    } catch (error) {
      request.log.warn({ err: error }, 'provider callback refused');
      return fail(reply, null, 'login', 'ProviderFailed', null);
    }
    const team = await repos.teams.findById(flow.team_id);
    if (!team) throw new Error('the sign-in attempt names no team');
    const row = await external.providerFor(team.id, kind);
    if (!row || answer.error || !answer.code)
      return fail(reply, team.name, flow.mode, 'ProviderFailed', flow.return_url);

    let identity: ProviderIdentity;
    try {
      identity = await external.finish(flow, row, callback, answer.state!);
      identity = { ...identity, name: identity.name ?? appleName(answer.user) };
    } catch (error) {
      if (!(error instanceof FlowError)) throw error;
      request.log.warn({ err: error }, 'provider answer refused');
      return fail(reply, team.name, flow.mode, 'ProviderFailed', flow.return_url);
    }
    if (row.allowed_tenant && identity.tenant !== row.allowed_tenant)
      return fail(reply, team.name, flow.mode, 'InvalidTenant', flow.return_url);
    if (row.allowed_domain && !identity.email?.endsWith(`@${row.allowed_domain.toLowerCase()}`)) {
      return fail(reply, team.name, flow.mode, 'InvalidTenant', flow.return_url);
    }

    if (flow.mode === 'link') {
      const session = await sessionOf(request);
      if (!session || session.user_id !== flow.user_id)
        return fail(reply, team.name, 'login', 'ProviderFailed', flow.return_url);
      const provider = PROVIDER_NAMES[kind];
      const owner = await repos.identities.ownerOf(team.id, provider, identity.subject);
      if (owner !== undefined && owner !== session.user_id)
        return fail(reply, team.name, 'link', 'UserAlreadyExists', flow.return_url);
      if (owner === undefined) {
        const linked = await repos.identities.link({
          userId: session.user_id,
          teamId: team.id,
          provider,
          subject: identity.subject,
          userName: identity.email ?? identity.name ?? identity.subject,
          now: clock.now(),
        });
        if (!linked) return fail(reply, team.name, 'link', 'UserAlreadyExists', flow.return_url);
        await recordActivity(request, session.user_id, 'providerConnected', { provider });
      }
      reply.clearCookie(FLOW_COOKIE, flowCookie);
      return reply.redirect('/manage', 303);
    }

    if (flow.invitation_id) return joinByInvitation(request, reply, team, kind, flow, identity);

    const user = await external.resolveUser(team.id, kind, identity, row.link_by_email === 1);
    if (typeof user === 'string') return fail(reply, team.name, 'login', user, flow.return_url);
    // The provider vouched for the person, as the right password does: they are told that an
    // administrator turned the account off (waiting would not help), else that it is locked.
    if (user.disabled_at !== null) return fail(reply, team.name, 'login', 'UserDisabled', flow.return_url);
    if (user.locked || (await lockout.isLocked(team.name, user.email)))
      return fail(reply, team.name, 'login', 'UserLocked', flow.return_url);
    if (await ssoRequired(repos, user.id))
      return fail(reply, team.name, 'login', 'SsoRequired', flow.return_url);
    return signInUser(request, reply, user, flow.return_url, kind);
  }

  app.get(
    '/account/callback/:provider',
    { config: { auth: 'none' }, schema: callbackSchema },
    async (request, reply) => {
      const kind = kindOf(request.params.provider);
      if (!kind) return reply.code(404).send({ message: 'not found' });
      return finishCallback(request, reply, kind, request.query, new URL(request.url, config.publicUrl));
    },
  );

  // Apple answers with response_mode=form_post: a cross-site POST from its page, exempt from the
  // anti-forgery rule (config.forgery) because only this browser's flow cookie and the flow's state,
  // both single use, can make it do anything.
  app.post(
    '/account/callback/:provider',
    { config: { body: 'form', auth: 'none', forgery: 'flow-bound' }, schema: callbackFormSchema },
    async (request, reply) => {
      const kind = kindOf(request.params.provider);
      if (!kind || !FORM_POST.has(kind)) return reply.code(404).send({ message: 'not found' });
      const { user, ...fields } = request.body;
      const callback = new Request(external.redirectUri(kind), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(
          Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
        ),
      });
      return finishCallback(request, reply, kind, { ...fields, user }, callback);
    },
  );

  /**
   * Unlink a provider. Refused (409) when it is the only way to sign in — no password and this is the
   * last external account — decided inside one write transaction (SQLite: BEGIN IMMEDIATE serialises
   * writers; PostgreSQL: the user's row is locked), so two parallel unlinks cannot both pass.
   */
  app.delete(
    '/api/user/password/:provider',
    { config: { auth: 'bearer' }, schema: unlinkSchema, preHandler: knownProvider },
    async (request, reply) => {
      const kind = providerOf(request);
      const caller = callerOf(request);
      const provider = PROVIDER_NAMES[kind];
      const outcome = await repos.identities.unlinkUnlessLast(caller.user.id, provider);
      if (outcome === 'not-linked')
        return reply.code(404).send({ message: `no ${provider} account is connected` });
      if (outcome === 'only-sign-in')
        return reply.code(409).send({ message: 'cannot remove the only sign-in option' });
      await recordActivity(request, caller.user.id, 'providerDisconnected', { provider });
      return { message: `${provider} account removed` };
    },
  );
};
