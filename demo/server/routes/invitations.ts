import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InvitationWithInviter, InviteOutcome } from '../db/invitations';
import type { Permission } from '../../../src/contract/permissions';
import { INVITATION_TTL_MS, mayGrant, type InvitationGone } from '../../../src/contract/team-rules';
import { randomToken, sha256 } from '../lib/crypto';
import { GONE, InvitationLinks, invitationLink } from '../lib/invitation-links';
import { answerLanguage, requestLanguage } from '../lib/language';
import { cleanName } from '../lib/names';
import { clientAddress, normaliseEmail } from '../lib/normalise';
import { sendInBackground } from '../lib/notify';
import { checkNewPassword, checkPassword, policyText, type NewPasswordProblem } from '../lib/password-policy';
import { inviteMail, mailBrand } from '../mail/compose';
import { serverText } from '../mail/texts';
import { adminOf, type TeamAdmin } from '../plugins/auth';
import { beginSessionUnlessSecondStep } from '../lib/session';
import { recordActivity, recordSignIn } from '../lib/activity';
import { errors, NoBody } from '../../../src/contract/schemas/common';
import {
  AcceptBody,
  AcceptResult,
  GoneBody,
  InspectBody,
  InspectResult,
  Invitation,
  InvitationList,
  InvitationParams,
  InviteBody,
} from '../../../src/contract/schemas/invitation';
import { DEFAULT_LANGUAGE, matchLanguage, type Language } from '../../../src/contract/languages';

/** Per address, for the invitee's calls (inspect and accept): generous for an office behind one address. */
const LINK_ADDRESS_LIMIT = { max: 60, windowMs: 15 * 60_000 };

const toInvitation = (row: InvitationWithInviter): Invitation => ({
  id: row.id,
  email: row.email,
  permissions: JSON.parse(row.permissions) as Permission[],
  sentAt: new Date(row.sent_at).toISOString(),
  expiresAt: new Date(row.expires_at).toISOString(),
  invitedBy:
    row.inviter_name !== null && row.inviter_email !== null
      ? { name: row.inviter_name, email: row.inviter_email }
      : null,
});

const REFUSALS = {
  alreadyMember: 'this address is already a member of the team',
  alreadyInvited: 'this address has a pending invitation already',
  seatLimit: 'the team has no free seat: raise the seat limit first',
} as const;

/**
 * Invitations (design §7): admins invite by e-mail with the permissions the invitee gets (a seat each,
 * the limit enforced atomically), list, resend (a new link; the old one stops) and revoke; the invitee
 * opens the mailed link (`/login/{team}/invite?id=…&token=…`), sees what it is for, and joins with a
 * name and password — signed in at once — or with one of the team's providers (routes/external.ts).
 * Tokens follow the reset tokens' rules: 256 bits, only the SHA-256 stored, single use, seven days.
 */
export const invitationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, config, limiter, hasher } = app.services;
  const links = new InvitationLinks(repos.invitations, clock);

  /**
   * Mail a new invitation link (in the background) in the inviter's language; the token exists only
   * in the mail. Built from PUBLIC_URL, never from the request's Host header.
   */
  async function mail(
    request: FastifyRequest,
    admin: TeamAdmin,
    invitation: InvitationWithInviter,
    token: string,
  ) {
    const link = invitationLink(config.publicUrl, admin.caller.teamName, invitation.id, token);
    const team = await repos.teams.brandingOf(invitation.team_id);
    const message = inviteMail({
      language: matchLanguage(invitation.language) ?? DEFAULT_LANGUAGE,
      brand: mailBrand(team.brand ?? config.brand),
      inviter: { name: admin.actor.name, email: admin.actor.email },
      team: team.display_name,
      link,
      expires: new Date(invitation.expires_at),
    });
    sendInBackground(request, { to: invitation.email, ...message });
  }

  /** The fields of a new link for the admin's team: a fresh token (kept for the mail) and its expiry. */
  function freshLink(request: FastifyRequest, admin: TeamAdmin) {
    const token = randomToken(32);
    const now = clock.now();
    return {
      token,
      fields: {
        teamId: admin.caller.user.team_id,
        tokenHash: sha256(token),
        inviter: admin.actor,
        language: answerLanguage(request, admin.caller.user.language),
        now,
        expiresAt: now + INVITATION_TTL_MS,
      },
    };
  }

  const refuse = (reply: FastifyReply, outcome: Exclude<InviteOutcome, { ok: true }>) =>
    reply.code(409).send({ message: REFUSALS[outcome.reason], code: outcome.reason, field: 'email' });

  app.get(
    '/api/team/invitations',
    {
      config: { auth: 'bearer', role: 'admin' },
      schema: { response: { 200: InvitationList, ...errors(400, 401, 403, 500) } },
    },
    async (request) => {
      const { caller } = adminOf(request);
      const rows = await repos.invitations.listOpen(caller.user.team_id);
      return { invitations: rows.map(toInvitation) };
    },
  );

  app.post(
    '/api/team/invitations',
    {
      config: {
        body: 'json',
        auth: 'bearer',
        role: 'admin',
        invalid: { email: 'invalidEmail', permissions: 'invalidPermission' },
      },
      schema: {
        body: InviteBody,
        response: { 201: Invitation, ...errors(400, 401, 403, 409, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const admin = adminOf(request);
      const permissions = request.body.permissions;
      if (!mayGrant(permissions, admin.actor.owner))
        return reply
          .code(403)
          .send({ message: 'only an owner may invite an owner', code: 'notOwner', field: 'permissions' });
      const { token, fields } = freshLink(request, admin);
      const outcome = await repos.invitations.invite({
        ...fields,
        email: normaliseEmail(request.body.email),
        permissions,
      });
      if (!outcome.ok) return refuse(reply, outcome);
      await mail(request, admin, outcome.invitation, token);
      return reply.code(201).send(toInvitation(outcome.invitation));
    },
  );

  app.post(
    '/api/team/invitations/:id/resend',
    {
      config: { auth: 'bearer', role: 'admin' },
      schema: {
        params: InvitationParams,
        response: { 200: Invitation, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const admin = adminOf(request);
      const { token, fields } = freshLink(request, admin);
      const outcome = await repos.invitations.resend(request.params.id, fields);
      if (!outcome.ok && outcome.reason === 'notFound')
        return reply.code(404).send({ message: 'no such invitation' });
      if (!outcome.ok) return refuse(reply, outcome);
      await mail(request, admin, outcome.invitation, token);
      return toInvitation(outcome.invitation);
    },
  );

  app.delete(
    '/api/team/invitations/:id',
    {
      config: { auth: 'bearer', role: 'admin' },
      schema: {
        params: InvitationParams,
        response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const revoked = await repos.invitations.revoke(
        caller.user.team_id,
        request.params.id,
        actor,
        clock.now(),
      );
      if (!revoked) return reply.code(404).send({ message: 'no such invitation' });
      return reply.code(204).send();
    },
  );

  const gone = (reply: FastifyReply, reason: InvitationGone) =>
    reply.code(410).send({ message: GONE[reason], code: 'gone' as const, reason });

  /** Count a hit of the invitee's calls from this address; past the limit answer 429 (and return true). */
  const limited = (request: FastifyRequest, reply: FastifyReply) =>
    limiter.refuse(reply, `invitation:ip:${clientAddress(request.ip)}`, LINK_ADDRESS_LIMIT);

  app.post(
    '/api/invitations/inspect',
    {
      config: { body: 'json', auth: 'none' },
      schema: {
        body: InspectBody,
        response: { 200: InspectResult, 410: GoneBody, ...errors(400, 403, 413, 415, 429, 500) },
      },
    },
    async (request, reply) => {
      if (await limited(request, reply)) return reply;
      const checked = await links.checkLink(request.body);
      if ('gone' in checked) return gone(reply, checked.gone);
      const { invitation, team } = checked.found;
      return {
        email: invitation.email,
        team: { name: team.name, displayName: team.display_name },
        methods: {
          local: team.local_enabled === 1,
          google: team.google_enabled === 1,
          azure: team.azure_enabled === 1,
          auth0: team.auth0_enabled === 1,
          apple: team.apple_enabled === 1,
        },
        auth0DisplayName: team.auth0_enabled ? (team.auth0_display_name ?? 'Auth0') : null,
      };
    },
  );

  app.post(
    '/api/invitations/accept',
    {
      config: { body: 'json', auth: 'none' },
      schema: {
        body: AcceptBody,
        response: { 200: AcceptResult, 410: GoneBody, ...errors(400, 403, 409, 413, 415, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      if (await limited(request, reply)) return reply;
      const checked = await links.checkLink(request.body);
      if ('gone' in checked) return gone(reply, checked.gone);
      const { invitation, team } = checked.found;
      const language: Language = answerLanguage(request);
      if (!team.local_enabled) {
        return reply.code(400).send({
          message: 'this team does not offer password sign-in: join with one of its providers',
          code: 'methodOff',
        });
      }
      const name = cleanName(request.body.name);
      if (!('name' in name))
        return reply.code(400).send({ message: name.message, code: 'invalidName', field: 'name' });
      const refuse = (problem: NewPasswordProblem) => {
        return reply
          .code(400)
          .send({ message: policyText(language, problem), code: problem, field: 'password' });
      };
      const ruled = checkPassword(request.body.password, invitation.email);
      if (ruled) return refuse(ruled);
      if (request.body.password !== request.body.confirmPassword) {
        return reply.code(400).send({
          message: serverText(language, 'confirmMismatch'),
          code: 'confirmMismatch',
          field: 'confirmPassword',
        });
      }
      // The breach check last: no request leaves for a password refused anyway.
      const { problem, unchecked } = await checkNewPassword(request, request.body.password, invitation.email);
      if (problem) return refuse(problem);
      const passwordHash = await hasher.hash(request.body.password);
      const outcome = await links.accept(invitation.id, {
        name: name.name,
        passwordHash,
        language: requestLanguage(request),
        now: clock.now(),
      });
      if (!outcome.ok && outcome.reason === 'gone') return gone(reply, outcome.gone);
      if (!outcome.ok)
        return reply.code(409).send({ message: REFUSALS[outcome.reason], code: outcome.reason });
      if (unchecked) await recordActivity(request, outcome.userId, 'breachCheckSkipped');
      // Joining is a sign-in: a team that requires two-step sign-in has the new member set up the
      // authenticator app (the sign-in's second step) before any session exists.
      const begun = await beginSessionUnlessSecondStep(
        request,
        reply,
        outcome.userId,
        ['pwd'],
        await repos.users.teamRequiresTwoStep(outcome.userId),
      );
      if (begun !== 'session') return { twoStep: { methods: [], enrol: true } };
      await recordSignIn(request, outcome.userId, 'invitation');
      return { authenticated: true as const };
    },
  );
};
