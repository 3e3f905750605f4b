import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { recordActivity } from '../lib/activity';
import { randomToken, safeEqual, sha256 } from '../lib/crypto';
import { answerLanguage } from '../lib/language';
import { clientAddress, normaliseEmail, normaliseTeam } from '../lib/normalise';
import { requireProof } from '../lib/proof-of-work';
import type { Limit } from '../lib/rate-limit';
import { checkNewPassword, policyText } from '../lib/password-policy';
import { notifyPasswordChanged, sendInBackground } from '../lib/notify';
import { mailBrand, resetMail } from '../mail/compose';
import { serverText } from '../mail/texts';
import { ssoRequired } from '../lib/sso-rule';
import { resetRequestSchema, resetSchema } from '../../../src/contract/schemas/password';
import { safeReturnUrl } from '../../../src/contract/return-url';

/** Design §4: reset tokens are single-use and live one hour. */
export const RESET_TOKEN_MS = 3600_000;
/** Per address and per account (team + e-mail, whether or not it exists). */
const ADDRESS_LIMIT = { max: 20, windowMs: 15 * 60_000 };
const ACCOUNT_LIMIT = { max: 5, windowMs: 60 * 60_000 };
const RESET_ADDRESS_LIMIT = { max: 30, windowMs: 15 * 60_000 };

/** The one answer to every reset request, whether or not the account exists. */
const REQUESTED = { message: 'if the account exists, a reset link is on its way' };

export const passwordResetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, limiter, hasher, config } = app.services;

  /** Count a hit; past the limit answer 429 (and return true). */
  const limited = (reply: FastifyReply, bucket: string, limit: Limit) => limiter.refuse(reply, bucket, limit);

  /**
   * POST /api/user/password/request: always the same 200 — once a solved proof-of-work challenge
   * comes with it (403 with the refusal's code otherwise, lib/proof-of-work.ts). For an existing account of a team with
   * password sign-in a new token (256 bits,
   * stored hashed, one hour) supersedes older ones and the link goes out by mail.
   */
  app.post(
    '/api/user/password/request',
    { config: { body: 'json', auth: 'none' }, schema: resetRequestSchema, preHandler: requireProof() },
    async (request, reply) => {
      const teamName = normaliseTeam(request.body.teamName);
      const email = normaliseEmail(request.body.userName);
      if (await limited(reply, `reset-request:ip:${clientAddress(request.ip)}`, ADDRESS_LIMIT)) return reply;
      if (await limited(reply, `reset-request:account:${teamName}:${email}`, ACCOUNT_LIMIT)) return reply;

      // A team without password sign-in has no use for one, nor a member whose domain requires single
      // sign-on (its password would be refused): no mail, and the same answer.
      const user = await repos.users.findResetRecipient(teamName, email);
      if (!user || (await ssoRequired(repos, user.id))) return REQUESTED;

      const token = randomToken(32);
      const now = clock.now();
      await repos.passwordResets.issue(user.id, sha256(token), now, now + RESET_TOKEN_MS);
      // Built from PUBLIC_URL, never from the request's Host header.
      const query = new URLSearchParams({ id: user.id, token });
      const returnUrl = safeReturnUrl(request.body.returnUrl, new URL(config.publicUrl).origin);
      if (returnUrl) query.set('ReturnUrl', returnUrl);
      const link = `${config.publicUrl}/login/${encodeURIComponent(user.team_name)}/resetPassword?${query}`;
      const mail = resetMail({
        language: answerLanguage(request, user.language),
        brand: mailBrand(user.brand ?? config.brand),
        name: user.name,
        team: user.display_name,
        link,
      });
      sendInBackground(request, { to: user.email, ...mail });
      return REQUESTED;
    },
  );

  /**
   * POST /api/user/password/reset: 401 when team and user do not match (or the team has no password
   * sign-in); 410 for an expired, used or
   * superseded token; 400 `{message}` (in the caller's language) for a password the policy refuses.
   * The token is consumed by one conditional UPDATE, so of many parallel uses exactly one wins; then the
   * password changes, every session of the user ends and any sign-in lock is lifted.
   */
  app.post(
    '/api/user/password/reset',
    { config: { body: 'json', auth: 'none' }, schema: resetSchema },
    async (request, reply) => {
      if (await limited(reply, `reset:ip:${clientAddress(request.ip)}`, RESET_ADDRESS_LIMIT)) return reply;
      const { teamName, userId, token, newPassword } = request.body;
      const team = normaliseTeam(teamName);
      const user = await repos.users.findResetAccount(userId, team);
      const language = answerLanguage(request, user?.language);
      if (!user) return reply.code(401).send({ message: serverText(language, 'resetMismatch') });

      const now = clock.now();
      const presented = sha256(token);
      const live = await repos.passwordResets.liveFor(user.id, now);
      const match = live.find((row) => safeEqual(row.token_hash, presented));
      if (!match) return reply.code(410).send({ message: serverText(language, 'resetInvalid') });

      const { problem, unchecked } = await checkNewPassword(request, newPassword, user.email);
      if (problem) {
        return reply.code(400).send({ message: policyText(language, problem), code: problem });
      }
      const hash = await hasher.hash(newPassword);
      const redeemed = await repos.passwordResets.redeem(match.id, now, {
        userId: user.id,
        passwordHash: hash,
        teamName: user.team_name,
        email: user.email,
      });
      if (!redeemed) return reply.code(410).send({ message: serverText(language, 'resetInvalid') });
      await recordActivity(request, user.id, 'passwordReset');
      if (unchecked) await recordActivity(request, user.id, 'breachCheckSkipped');
      notifyPasswordChanged(request, user, now);
      return { message: 'password reset' };
    },
  );
};
