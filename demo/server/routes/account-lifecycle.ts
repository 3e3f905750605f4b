import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { recordActivity } from '../lib/activity';
import { randomToken, sha256 } from '../lib/crypto';
import { answerLanguage } from '../lib/language';
import { clientAddress, normaliseEmail } from '../lib/normalise';
import { sendInBackground } from '../lib/notify';
import { reauthRefusal } from '../lib/reauth';
import { emailConfirmMail, emailNoticeMail, mailBrand } from '../mail/compose';
import { callerOf } from '../plugins/auth';
import {
  cancelEmailChangeSchema,
  deleteAccountSchema,
  emailChangeSchema,
  emailLinkCheckSchema,
  emailLinkSchema,
  emailStatusSchema,
} from '../../../src/contract/schemas/account-lifecycle';
import { clearSessionCookies, issueXsrfCookie, setSessionOf } from '../lib/session';

/** A confirmation link lives one hour; the old address's undo link 7 days. */
const CONFIRM_MS = 3600_000;
const UNDO_MS = 7 * 24 * 3600_000;
/** Link calls per client address per 15 minutes. */
const LINK_LIMIT = 60;
const LINK_WINDOW_MS = 15 * 60_000;

const GONE = { message: 'this link is no longer valid', code: 'gone' };
const TAKEN = { message: 'this address is already used in the team', code: 'emailTaken', field: 'newEmail' };

/**
 * The account's lifecycle as its user drives it: moving it to another e-mail address (confirmed from
 * the new address, undoable from the old one) and leaving the team (deleting the account). Links land on `/manage/email?change=…&token=…` (or
 * `&undo=…`), a screen of the account feature that posts them here.
 */
export const accountLifecycleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, config, limiter } = app.services;

  async function limited(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const limit = await limiter.hit(`email-link:ip:${clientAddress(request.ip)}`, {
      max: LINK_LIMIT,
      windowMs: LINK_WINDOW_MS,
    });
    if (limit.allowed) return false;
    reply.code(429).header('Retry-After', String(limit.retryAfter)).send({ message: 'too many attempts' });
    return true;
  }

  app.post(
    '/api/user/email',
    {
      config: { body: 'json', auth: 'bearer', invalid: { newEmail: 'invalidEmail' } },
      schema: emailChangeSchema,
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const refused = await reauthRefusal(request, caller, request.body.password);
      if (refused) return reply.code(refused.status).send(refused.body);
      const newEmail = normaliseEmail(request.body.newEmail);
      if (newEmail === caller.user.email)
        return reply
          .code(400)
          .send({ message: 'this is already your address', code: 'sameEmail', field: 'newEmail' });
      // No word here on whether another member has the address: member search is for admins, and this
      // answer would be a way around it. The mail decides — the link goes to the new address, and its
      // confirmation refuses an address that is taken by then (only that mailbox's holder sees it).

      const id = randomToken(16);
      const token = randomToken(32);
      const undo = randomToken(32);
      const now = clock.now();
      await repos.emailChanges.request({
        id,
        userId: caller.user.id,
        oldEmail: caller.user.email,
        newEmail,
        tokenHash: sha256(token),
        undoHash: sha256(undo),
        now,
        expiresAt: now + CONFIRM_MS,
      });
      const branding = await repos.teams.brandingOf(caller.user.team_id);
      const common = {
        language: answerLanguage(request, caller.user.language),
        brand: mailBrand(branding.brand ?? config.brand),
        name: caller.user.name,
        team: branding.display_name,
        email: newEmail,
      };
      const base = `${config.publicUrl}/manage/email`;
      const confirm = emailConfirmMail({
        ...common,
        link: `${base}?${new URLSearchParams({ change: id, token })}`,
      });
      const notice = emailNoticeMail({
        ...common,
        link: `${base}?${new URLSearchParams({ change: id, undo })}`,
      });
      sendInBackground(request, { to: newEmail, ...confirm });
      sendInBackground(request, { to: caller.user.email, ...notice });
      return reply.code(202).send({ pendingEmail: newEmail });
    },
  );

  /** The change waiting for its confirmation: the screen shows it (and its cancel) after a reload. */
  app.get('/api/user/email', { config: { auth: 'bearer' }, schema: emailStatusSchema }, async (request) => {
    const caller = callerOf(request);
    const pending = await repos.emailChanges.pending(caller.user.id, clock.now());
    return {
      pending: pending
        ? { newEmail: pending.new_email, expiresAt: new Date(pending.expires_at).toISOString() }
        : null,
    };
  });

  /** Cancel the pending change: its links stop working, as the old address's undo link would do. */
  app.delete(
    '/api/user/email',
    { config: { body: 'none', auth: 'bearer' }, schema: cancelEmailChangeSchema },
    async (request, reply) => {
      const caller = callerOf(request);
      if (!(await repos.emailChanges.cancel(caller.user.id, clock.now())))
        return reply.code(404).send({ message: 'no change is waiting', code: 'notFound' });
      await recordActivity(request, caller.user.id, 'emailChangeUndone');
      return reply.code(204).send();
    },
  );

  /**
   * Whether a mail's link would still be taken, asked when the screen opens so that a used or stale link
   * says so at once rather than after a click. Uses nothing; limited as the links themselves are.
   */
  app.post(
    '/api/user/email/check',
    { config: { body: 'json', auth: 'none' }, schema: emailLinkCheckSchema },
    async (request, reply) => {
      if (await limited(request, reply)) return reply;
      const { change, token, action } = request.body;
      const now = clock.now();
      const usable = await repos.emailChanges.usable(change, action, sha256(token), now, now - UNDO_MS);
      return usable ? reply.code(204).send() : reply.code(410).send(GONE);
    },
  );

  /** The link mailed to the new address: the token proves the address; no session is needed. */
  app.post(
    '/api/user/email/confirm',
    { config: { body: 'json', auth: 'none' }, schema: emailLinkSchema },
    async (request, reply) => {
      if (await limited(request, reply)) return reply;
      const { change, token } = request.body;
      const outcome = await repos.emailChanges.confirm(change, sha256(token), clock.now());
      if (!outcome.ok)
        return reply
          .code(outcome.reason === 'taken' ? 409 : 410)
          .send(outcome.reason === 'taken' ? TAKEN : GONE);
      await recordActivity(request, outcome.userId, 'emailChanged');
      const account = await repos.activity.noticeAccount(outcome.userId);
      return { email: account?.email ?? '' };
    },
  );

  /** The link mailed to the old address: cancels the change, or takes it back (ending every session). */
  app.post(
    '/api/user/email/undo',
    { config: { body: 'json', auth: 'none' }, schema: emailLinkSchema },
    async (request, reply) => {
      if (await limited(request, reply)) return reply;
      const { change, token } = request.body;
      const now = clock.now();
      const outcome = await repos.emailChanges.undo(change, sha256(token), now, now - UNDO_MS);
      if (!outcome.ok)
        return reply
          .code(outcome.reason === 'taken' ? 409 : 410)
          .send(outcome.reason === 'taken' ? TAKEN : GONE);
      await recordActivity(request, outcome.userId, 'emailChangeUndone');
      const account = await repos.activity.noticeAccount(outcome.userId);
      return { email: account?.email ?? '' };
    },
  );

  /**
   * Leave the team: the account and everything of it go (its tokens stop at once: the bearer lookup finds
   * no user); refused (409 `lastOwner`) for the team's last owner. The browser's session cookie is
   * cleared too, and its anti-forgery token made anonymous.
   */
  app.delete(
    '/api/user',
    { config: { body: 'json', auth: 'bearer' }, schema: deleteAccountSchema },
    async (request, reply) => {
      const caller = callerOf(request);
      const refused = await reauthRefusal(request, caller, request.body.password);
      if (refused) return reply.code(refused.status).send(refused.body);
      const { user } = caller;
      const outcome = await repos.accounts.leave(
        { id: user.id, teamId: user.team_id, name: user.name, email: user.email },
        clock.now(),
      );
      if (!outcome.ok)
        return reply.code(409).send({ message: 'the team needs another owner first', code: 'lastOwner' });
      // As a sign-out does: no session cookie, and an anonymous anti-forgery token in place of the
      // session-bound one, so the browser's next call (the sign-in screen's) is not refused.
      setSessionOf(request, null);
      clearSessionCookies(reply, config);
      await issueXsrfCookie(request, reply);
      return reply.code(204).send();
    },
  );
};
