import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../db/audit';
import type { InvitationWithInviter } from '../db/invitations';
import type { JoinRequestsTable } from '../db/schema';
import {
  INVITATION_TTL_MS,
  JOIN_CODE_ATTEMPTS,
  JOIN_CODE_LENGTH,
  JOIN_CODE_TTL_MS,
} from '../../../src/contract/team-rules';
import { DEFAULT_LANGUAGE, matchLanguage } from '../../../src/contract/languages';
import {
  approveJoinRequestSchema,
  declineJoinRequestSchema,
  joinStartSchema,
  joinTeamSchema,
  joinVerifySchema,
  listJoinRequestsSchema,
  type JoinRequest,
} from '../../../src/contract/schemas/join-requests';
import { hmac, randomToken, safeEqual, sha256 } from '../lib/crypto';
import { invitationLink } from '../lib/invitation-links';
import { answerLanguage } from '../lib/language';
import { cleanName } from '../lib/names';
import { clientAddress, normaliseEmail, normaliseTeam } from '../lib/normalise';
import { sendInBackground } from '../lib/notify';
import { joinApprovedMail, joinCodeMail, joinDeclinedMail, mailBrand } from '../mail/compose';
import { adminOf } from '../plugins/auth';

/** Per address, for asking and for codes: an office behind one address asks rarely. */
const ADDRESS_LIMIT = { max: 30, windowMs: 15 * 60_000 };
/** Per e-mail address asked for: codes mailed to one inbox in an hour. */
const INBOX_LIMIT = { max: 5, windowMs: 60 * 60_000 };

const WRONG_CODE = { message: 'this code is not right', code: 'wrongCode', field: 'code' } as const;
const NOT_FOUND = { message: 'no such request', code: 'notFound' } as const;
const REFUSALS = {
  alreadyMember: 'this address is already a member of the team',
  alreadyInvited: 'this address has a pending invitation already',
  seatLimit: 'the team has no free seat: raise the seat limit first',
} as const;

const toJoinRequest = (row: JoinRequestsTable): JoinRequest => ({
  id: row.id,
  email: row.email,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
});

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/**
 * Joining a team by its domain (docs/decisions/join-by-domain.md): a person at a team's verified
 * domain that does not sign in through single sign-on asks from the team step with a name and the
 * address, enters the code mailed there, and the request waits for the team's admins — or, when the
 * domain lets people join without approval and a seat is free, becomes an invitation at once. Approved
 * requests are ordinary invitations: the person joins through routes/invitations.ts. The person's side
 * answers the same for every address (a member, a pending request, a disabled account: nothing said).
 */
export const joinRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, config, limiter, lockout } = app.services;
  const secret = app.services.keys.hmacSecret;
  const admin = { auth: 'bearer', role: 'admin' } as const;

  /** The code's keyed hash, bound to the team and the address it was mailed to. */
  const codeHash = (teamId: string, email: string, code: string) =>
    hmac(secret, `join-code:${teamId}:${email}:${code}`);

  /** Mail the invitation an approved request became, in the person's language. */
  async function mailInvitation(
    request: FastifyRequest,
    row: JoinRequestsTable,
    invitation: InvitationWithInviter,
    token: string,
  ) {
    const team = await repos.teams.findById(row.team_id);
    if (!team) return;
    const message = joinApprovedMail({
      language: matchLanguage(row.language) ?? DEFAULT_LANGUAGE,
      brand: mailBrand(team.brand ?? config.brand),
      name: row.name,
      team: team.display_name,
      link: invitationLink(config.publicUrl, team.name, invitation.id, token),
      expires: new Date(invitation.expires_at),
    });
    sendInBackground(request, { to: row.email, ...message });
  }

  /** The fields of the invitation an approval makes: a fresh token, kept for the mail. */
  function freshInvitation(inviter: Actor | null) {
    const token = randomToken(32);
    const now = clock.now();
    const fields = { tokenHash: sha256(token), inviter, now, expiresAt: now + INVITATION_TTL_MS };
    return { token, fields };
  }

  app.get(
    '/account/join/team',
    { config: { auth: 'none' }, schema: joinTeamSchema },
    async (request, reply) => {
      const team = await repos.domains.joinableBy(request.query.domain.trim().toLowerCase());
      if (!team)
        return reply
          .code(404)
          .send({ message: 'no team can be asked to join from this domain', code: 'noTeam' });
      return { name: team.name, displayName: team.display_name };
    },
  );

  app.post(
    '/account/join',
    { config: { body: 'json', auth: 'none', invalid: { email: 'invalidEmail' } }, schema: joinStartSchema },
    async (request, reply) => {
      if (await limiter.refuse(reply, `join:ip:${clientAddress(request.ip)}`, ADDRESS_LIMIT)) return reply;
      const name = cleanName(request.body.name);
      if (!('name' in name))
        return reply.code(400).send({ message: name.message, code: 'invalidName', field: 'name' });
      const email = normaliseEmail(request.body.email);
      if (!/^[^@\s]+@[^@\s]+$/.test(email))
        return reply
          .code(400)
          .send({ message: 'not an e-mail address', code: 'invalidEmail', field: 'email' });
      const team = await repos.teams.findByName(normaliseTeam(request.body.teamName));
      const joinable = await repos.domains.joinableBy(domainOf(email));
      const inbox = await limiter.hit(`join:email:${sha256(email)}`, INBOX_LIMIT);
      // Whatever stands in the way, the answer is an id like any other: only the inbox learns more.
      if (!team || joinable?.id !== team.id || !inbox.allowed)
        return reply.code(202).send({ requestId: randomUUID() });
      const code = String(randomInt(0, 10 ** JOIN_CODE_LENGTH)).padStart(JOIN_CODE_LENGTH, '0');
      const now = clock.now();
      const language = answerLanguage(request);
      const requestId = await repos.joinRequests.begin({
        teamId: team.id,
        email,
        name: name.name,
        language,
        codeHash: codeHash(team.id, email, code),
        codeExpiresAt: now + JOIN_CODE_TTL_MS,
        now,
      });
      const branding = await repos.teams.brandingOf(team.id);
      const brand = mailBrand(branding.brand ?? config.brand);
      const mail = joinCodeMail({ language, brand, name: name.name, team: branding.display_name, code });
      sendInBackground(request, { to: email, ...mail });
      return reply.code(202).send({ requestId });
    },
  );

  app.post(
    '/account/join/verify',
    { config: { body: 'json', auth: 'none' }, schema: joinVerifySchema },
    async (request, reply) => {
      if (await limiter.refuse(reply, `join:ip:${clientAddress(request.ip)}`, ADDRESS_LIMIT)) return reply;
      const code = request.body.code.replace(/\s/g, '');
      const row = await repos.joinRequests.unverified(request.body.requestId);
      // An id that names nothing costs what a wrong code does and says the same.
      const expected = row?.code_hash ?? codeHash('none', 'none', 'none');
      const given = codeHash(row?.team_id ?? 'none', row?.email ?? 'none', code);
      if (!row) return reply.code(400).send(WRONG_CODE);
      // Counted with the sign-in's failures of the same address at the team: one lock for both.
      if (await lockout.isLocked(row.team_name, row.email))
        return reply.code(429).send({ message: 'too many wrong codes: try again later', code: 'locked' });
      const expired = (row.code_expires_at ?? 0) <= clock.now();
      if (expired || !safeEqual(given, expected)) {
        const { locked } = await lockout.recordFailure(row.team_name, row.email);
        await repos.joinRequests.wrongCode(row.id, expired ? 0 : JOIN_CODE_ATTEMPTS);
        if (locked)
          return reply.code(429).send({ message: 'too many wrong codes: try again later', code: 'locked' });
        return reply.code(400).send(WRONG_CODE);
      }
      const joinable = await repos.domains.joinableBy(domainOf(row.email));
      const autoJoin = joinable !== undefined && joinable.id === row.team_id && joinable.auto_join === 1;
      const { token, fields } = freshInvitation(null);
      const outcome = await repos.joinRequests.verified(row.id, autoJoin, fields);
      if (outcome.kind === 'invited')
        await mailInvitation(request, outcome.request, outcome.invitation, token);
      return reply.code(202).send();
    },
  );

  app.get('/api/team/join-requests', { config: admin, schema: listJoinRequestsSchema }, async (request) => {
    const rows = await repos.joinRequests.listPending(adminOf(request).caller.user.team_id);
    return { requests: rows.map(toJoinRequest) };
  });

  app.post(
    '/api/team/join-requests/:id/approve',
    { config: admin, schema: approveJoinRequestSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const { token, fields } = freshInvitation(actor);
      const outcome = await repos.joinRequests.approve(caller.user.team_id, request.params.id, fields);
      if (!outcome.ok) {
        const { reason } = outcome;
        if (reason === 'notFound') return reply.code(404).send(NOT_FOUND);
        return reply.code(409).send({ message: REFUSALS[reason], code: reason });
      }
      if (outcome.invitation) await mailInvitation(request, outcome.request, outcome.invitation, token);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/team/join-requests/:id/decline',
    { config: admin, schema: declineJoinRequestSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const row = await repos.joinRequests.decline(
        caller.user.team_id,
        request.params.id,
        actor,
        clock.now(),
      );
      if (!row) return reply.code(404).send(NOT_FOUND);
      const team = await repos.teams.brandingOf(row.team_id);
      const message = joinDeclinedMail({
        language: matchLanguage(row.language) ?? DEFAULT_LANGUAGE,
        brand: mailBrand(team.brand ?? config.brand),
        name: row.name,
        team: team.display_name,
      });
      sendInBackground(request, { to: row.email, ...message });
      return reply.code(204).send();
    },
  );
};
