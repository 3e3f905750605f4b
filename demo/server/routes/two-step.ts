import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import type { PendingUser } from '../db/two-step';
import { recordActivity, recordMemberEvent, recordSignIn } from '../lib/activity';
import { cookiesOf } from '../lib/cookies';
import { sha256 } from '../lib/crypto';
import { clientAddress } from '../lib/normalise';
import { notifySecurity } from '../lib/notify';
import { PasskeyRefused, registrantOf } from '../lib/passkeys';
import { TotpReplacements } from '../lib/totp-replacement';
import { PENDING_COOKIE } from '../lib/two-step';
import { callerOf } from '../plugins/auth';
import { beginSession, pendingCookieOptions } from '../lib/session';
import {
  pendingConfirmSchema,
  pendingEnrolSchema,
  recoveryRegenerateSchema,
  secondStepSchema,
  totpConfirmSchema,
  totpEnrolSchema,
  totpRemoveSchema,
  totpReplaceConfirmSchema,
  totpReplaceSchema,
  twoStepStatusSchema,
  type TwoStepStatus,
} from '../../../src/contract/schemas/two-step';

/** Code attempts per client address per 5 minutes (the lockout guards each account). */
const ADDRESS_WINDOW_MS = 5 * 60_000;
/** A signed-in user's code attempts (enrolment) and password re-entries, per 5 minutes. */
const USER_LIMIT = { max: 10, windowMs: 5 * 60_000 };

const EXPIRED = { message: 'the sign-in has expired, sign in again', code: 'twoStepExpired' };
const LOCKED = { message: 'account locked' };

/**
 * Two-step sign-in (spec: passkeys and two-step sign-in): the second step after a password, the
 * enrolment a team requires at sign-in, and a signed-in user's authenticator app and recovery codes.
 * A pending sign-in (its httpOnly cookie, five minutes) is read by the `/account/two-step` calls only:
 * it is no session and opens nothing else. Wrong codes count towards the same lockout as wrong
 * passwords (per team and address), and calls are rate-limited per client address.
 */
export const twoStepRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, twoStep, lockout, limiter, config, clock, hasher, passkeys } = app.services;
  const replacements = new TotpReplacements(app.services.keys.hmacSecret, clock);

  /**
   * The caller's pending sign-in, after the address limit and the lockout; or the refusal sent (and
   * null returned).
   */
  async function pendingFor(request: FastifyRequest, reply: FastifyReply): Promise<PendingUser | null> {
    const limit = await limiter.hit(`two-step:ip:${clientAddress(request.ip)}`, {
      max: config.loginAddressLimit,
      windowMs: ADDRESS_WINDOW_MS,
    });
    if (!limit.allowed) {
      reply
        .code(429)
        .header('Retry-After', String(limit.retryAfter))
        .send({ message: 'too many sign-in attempts from this address' });
      return null;
    }
    const found = await twoStep.pendingOf(cookiesOf(request)[PENDING_COOKIE]);
    if (!found || found.disabled) {
      reply.clearCookie(PENDING_COOKIE, pendingCookieOptions(config));
      reply.code(401).send(EXPIRED);
      return null;
    }
    if (found.locked || (await lockout.isLocked(found.teamName, found.email))) {
      reply.code(403).send(LOCKED);
      return null;
    }
    return found;
  }

  /** A wrong code: counted like a wrong password; the lock that it may start ends the pending sign-in. */
  async function wrongCode(request: FastifyRequest, reply: FastifyReply, found: PendingUser, field: string) {
    // The team hears of it (a password known to someone else shows so); the user's log keeps sign-ins.
    await recordMemberEvent(request, found.pending.user_id, 'user.twoStepFailed', {
      method: field === 'recoveryCode' ? 'recovery' : 'totp',
    });
    const { locked } = await lockout.recordFailure(found.teamName, found.email);
    if (locked) {
      await repos.twoStep.dropPending(found.pending.id_hash);
      reply.clearCookie(PENDING_COOKIE, pendingCookieOptions(config));
      return reply.code(403).send(LOCKED);
    }
    return reply.code(401).send({ message: 'the code is not valid', code: 'invalidCode', field });
  }

  /** The second step is done: the pending sign-in is used up and the session begins. */
  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    found: PendingUser,
    methods: string[],
  ): Promise<boolean> {
    if (!(await repos.twoStep.finishPending(found.pending.id_hash, clock.now()))) {
      reply.code(401).send(EXPIRED);
      return false;
    }
    await lockout.clear(found.teamName, found.email);
    const amr = [...new Set([...found.pending.amr.split(' '), ...methods, 'mfa'])];
    await beginSession(request, reply, found.pending.user_id, amr);
    await recordSignIn(request, found.pending.user_id, 'twoStep');
    return true;
  }

  app.post(
    '/account/two-step',
    { config: { body: 'json', auth: 'none' }, schema: secondStepSchema },
    async (request, reply) => {
      const found = await pendingFor(request, reply);
      if (!found) return reply;
      if (found.pending.must_enrol)
        return reply.code(409).send({ message: 'set up two-step sign-in first', code: 'enrolRequired' });
      const userId = found.pending.user_id;
      const totp = await repos.twoStep.totpOf(userId);
      if (!totp || totp.confirmed_at === null) {
        // Turned off since the password was checked: sign in again.
        await repos.twoStep.dropPending(found.pending.id_hash);
        return reply.code(401).send(EXPIRED);
      }
      const body = request.body;
      if ('code' in body) {
        const outcome = await twoStep.checkCode(userId, totp.sealed_secret, body.code.trim());
        if (outcome !== 'ok') return wrongCode(request, reply, found, 'code');
        if (!(await finish(request, reply, found, ['otp']))) return reply;
        return { authenticated: true as const };
      }
      const hash = twoStep.recoveryHash(body.recoveryCode);
      if (!(await repos.twoStep.useRecoveryCode(userId, hash, clock.now())))
        return wrongCode(request, reply, found, 'recoveryCode');
      if (!(await finish(request, reply, found, ['otp']))) return reply;
      const left = await repos.twoStep.unusedRecoveryCodes(userId);
      await recordActivity(request, userId, 'recoveryCodeUsed');
      await notifySecurity(request, userId, 'recoveryUsed', { left });
      return { authenticated: true as const };
    },
  );

  /** The enrolment a team requires, from the pending sign-in: a new key (replacing an unconfirmed one). */
  app.post(
    '/account/two-step/enrol',
    { config: { body: 'none', auth: 'none' }, schema: pendingEnrolSchema },
    async (request, reply) => {
      const found = await pendingFor(request, reply);
      if (!found) return reply;
      if (!found.pending.must_enrol)
        return reply.code(409).send({ message: 'two-step sign-in is already set up', code: 'alreadyOn' });
      const key = twoStep.newKey(found.pending.user_id, found.email);
      if (!(await repos.twoStep.enrol(found.pending.user_id, key.sealed, clock.now())))
        return reply.code(409).send({ message: 'two-step sign-in is already set up', code: 'alreadyOn' });
      return { uri: key.uri, secret: key.secret };
    },
  );

  app.post(
    '/account/two-step/enrol/confirm',
    { config: { body: 'json', auth: 'none' }, schema: pendingConfirmSchema },
    async (request, reply) => {
      const found = await pendingFor(request, reply);
      if (!found) return reply;
      const userId = found.pending.user_id;
      const totp = await repos.twoStep.totpOf(userId);
      if (!found.pending.must_enrol || !totp || totp.confirmed_at !== null)
        return reply.code(409).send({ message: 'there is no key to confirm', code: 'nothingToConfirm' });
      if ((await twoStep.checkCode(userId, totp.sealed_secret, request.body.code.trim())) !== 'ok')
        return wrongCode(request, reply, found, 'code');
      const { codes, hashes } = twoStep.newRecoveryCodes();
      if (!(await repos.twoStep.confirm(userId, hashes, clock.now())))
        return reply.code(409).send({ message: 'there is no key to confirm', code: 'nothingToConfirm' });
      if (!(await finish(request, reply, found, ['otp']))) return reply;
      await recordActivity(request, userId, 'twoStepOn');
      await notifySecurity(request, userId, 'twoStepOn');
      return { authenticated: true as const, recoveryCodes: codes };
    },
  );

  const status = async ({ id: userId, password_hash }: User): Promise<TwoStepStatus> => {
    const [totp, left, passkeys, required] = await Promise.all([
      repos.twoStep.totpOf(userId),
      repos.twoStep.unusedRecoveryCodes(userId),
      repos.passkeys.credentialIdsOf(userId),
      repos.users.teamRequiresTwoStep(userId),
    ]);
    const on = totp !== undefined && totp.confirmed_at !== null;
    return {
      totp: on,
      recoveryCodesLeft: on ? left : 0,
      passkeys: passkeys.length,
      required,
      password: password_hash !== null,
    };
  };

  app.get(
    '/api/user/two-step',
    { config: { auth: 'bearer' }, schema: twoStepStatusSchema },
    async (request) => status(callerOf(request).user),
  );

  app.post(
    '/api/user/two-step/totp',
    { config: { body: 'none', auth: 'bearer' }, schema: totpEnrolSchema },
    async (request, reply) => {
      const { user } = callerOf(request);
      if (await limiter.refuse(reply, `two-step:user:${user.id}`, USER_LIMIT)) return reply;
      const key = twoStep.newKey(user.id, user.email);
      if (!(await repos.twoStep.enrol(user.id, key.sealed, clock.now())))
        return reply.code(409).send({ message: 'two-step sign-in is already on', code: 'alreadyOn' });
      return { uri: key.uri, secret: key.secret };
    },
  );

  app.post(
    '/api/user/two-step/totp/confirm',
    { config: { body: 'json', auth: 'bearer' }, schema: totpConfirmSchema },
    async (request, reply) => {
      const { user } = callerOf(request);
      if (await limiter.refuse(reply, `two-step:user:${user.id}`, USER_LIMIT)) return reply;
      const totp = await repos.twoStep.totpOf(user.id);
      if (!totp || totp.confirmed_at !== null)
        return reply.code(409).send({ message: 'there is no key to confirm', code: 'nothingToConfirm' });
      if ((await twoStep.checkCode(user.id, totp.sealed_secret, request.body.code.trim())) !== 'ok')
        return reply.code(400).send({ message: 'the code is not valid', code: 'invalidCode', field: 'code' });
      const { codes, hashes } = twoStep.newRecoveryCodes();
      if (!(await repos.twoStep.confirm(user.id, hashes, clock.now())))
        return reply.code(409).send({ message: 'there is no key to confirm', code: 'nothingToConfirm' });
      await recordActivity(request, user.id, 'twoStepOn');
      await notifySecurity(request, user.id, 'twoStepOn');
      return { recoveryCodes: codes };
    },
  );

  /**
   * Whether the caller proved presence again — their password, or one of their passkeys for a
   * re-authentication challenge of their session; the refusal sent otherwise.
   */
  async function reauthenticated(
    request: FastifyRequest,
    reply: FastifyReply,
    proof: { password: string } | { passkey: unknown },
  ): Promise<boolean> {
    const caller = callerOf(request);
    const { user } = caller;
    if (await limiter.refuse(reply, `two-step:user:${user.id}`, USER_LIMIT)) return false;
    if ('passkey' in proof) {
      try {
        await passkeys.verifyReauthentication(
          registrantOf(caller),
          proof.passkey as Parameters<typeof passkeys.verifyReauthentication>[1],
        );
        return true;
      } catch (error) {
        if (!(error instanceof PasskeyRefused)) throw error;
        request.log.info({ reason: error.message }, 'passkey re-authentication refused');
        reply
          .code(400)
          .send({ message: 'the passkey was not accepted', code: 'passkeyRefused', field: 'passkey' });
        return false;
      }
    }
    // Always hash, as sign-in does: no answer comes faster for an account without a password.
    if (!(await hasher.verify(proof.password, user.password_hash))) {
      reply
        .code(400)
        .send({ message: 'the password is not correct', code: 'InvalidPassword', field: 'password' });
      return false;
    }
    return true;
  }

  app.delete(
    '/api/user/two-step/totp',
    { config: { body: 'json', auth: 'bearer' }, schema: totpRemoveSchema },
    async (request, reply) => {
      const { user } = callerOf(request);
      if (!(await reauthenticated(request, reply, request.body))) return reply;
      if (await repos.users.teamRequiresTwoStep(user.id))
        return reply
          .code(409)
          .send({ message: 'your team requires two-step sign-in', code: 'requiredByTeam' });
      if (!(await repos.twoStep.remove(user.id)))
        return reply.code(409).send({ message: 'two-step sign-in is not on', code: 'notOn' });
      await recordActivity(request, user.id, 'twoStepOff');
      await notifySecurity(request, user.id, 'twoStepOff');
      return status(user);
    },
  );

  /**
   * Move the authenticator app to a new device (a new phone), for everyone and above all for a member
   * whose team requires two-step sign-in, who cannot turn it off and on again: after proving presence,
   * a new key; the key in force keeps working until a code from the new app confirms the new one.
   */
  app.post(
    '/api/user/two-step/totp/replace',
    { config: { body: 'json', auth: 'bearer' }, schema: totpReplaceSchema },
    async (request, reply) => {
      const { user } = callerOf(request);
      if (!(await reauthenticated(request, reply, request.body))) return reply;
      const current = await repos.twoStep.totpOf(user.id);
      if (!current || current.confirmed_at === null)
        return reply.code(409).send({ message: 'two-step sign-in is not on', code: 'notOn' });
      const key = twoStep.newKey(user.id, user.email);
      const replacement = await replacements.issue(user.id, key.sealed, current.sealed_secret);
      return { uri: key.uri, secret: key.secret, replacement };
    },
  );

  app.post(
    '/api/user/two-step/totp/replace/confirm',
    { config: { body: 'json', auth: 'bearer' }, schema: totpReplaceConfirmSchema },
    async (request, reply) => {
      const { user } = callerOf(request);
      if (await limiter.refuse(reply, `two-step:user:${user.id}`, USER_LIMIT)) return reply;
      const GONE = { message: 'set up the new device again', code: 'replacementGone' };
      const replacement = await replacements.read(request.body.replacement, user.id);
      const current = await repos.twoStep.totpOf(user.id);
      if (!replacement || !current || sha256(current.sealed_secret) !== replacement.replaces)
        return reply.code(409).send(GONE);
      if ((await twoStep.checkCode(user.id, replacement.sealed, request.body.code.trim())) !== 'ok')
        return reply.code(400).send({ message: 'the code is not valid', code: 'invalidCode', field: 'code' });
      if (!(await repos.twoStep.replace(user.id, current.sealed_secret, replacement.sealed, clock.now())))
        return reply.code(409).send(GONE);
      await recordActivity(request, user.id, 'twoStepMoved');
      return status(user);
    },
  );

  app.post(
    '/api/user/two-step/recovery-codes',
    { config: { body: 'json', auth: 'bearer' }, schema: recoveryRegenerateSchema },
    async (request, reply) => {
      const { user } = callerOf(request);
      if (!(await reauthenticated(request, reply, request.body))) return reply;
      const { codes, hashes } = twoStep.newRecoveryCodes();
      if (!(await repos.twoStep.replaceRecoveryCodes(user.id, hashes, clock.now())))
        return reply.code(409).send({ message: 'two-step sign-in is not on', code: 'notOn' });
      await recordActivity(request, user.id, 'recoveryCodesRenewed');
      return { recoveryCodes: codes };
    },
  );
};
