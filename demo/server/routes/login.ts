import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { recordFailedSignIn, recordSignIn } from '../lib/activity';
import { requestLanguage } from '../lib/language';
import { clientAddress, normaliseEmail, normaliseTeam } from '../lib/normalise';
import { beginSecondStep, beginSession } from '../lib/session';
import { refuseProof } from '../lib/proof-of-work';
import { SSO_REQUIRED, ssoRequired } from '../lib/sso-rule';
import { loginSchema } from '../../../src/contract/schemas/account';
import type { SecondStepMethod } from '../../../src/contract/schemas/two-step';

/** The per-address window; generous (an office behind one address) — the lockout guards accounts. */
const ADDRESS_WINDOW_MS = 5 * 60_000;

/**
 * Failures after which each sign-in try needs a solved proof-of-work challenge: of the account (team and
 * e-mail, the lockout's count: the lock comes at 5), or from the address in a quarter of an hour
 * (`CHALLENGE_ADDRESS_FAILURES`: many accounts tried from one place). Below either, people who mistype are not asked for anything.
 */
export const PROOF_AFTER_FAILURES = 2;
const ADDRESS_FAILURES_MS = 15 * 60_000;

const INVALID = { message: 'invalid credentials' };
const LOCKED = { message: 'account locked' };
const DISABLED = { message: 'an administrator has turned this account off', code: 'disabled' };

/**
 * POST /account/login. Unknown team, unknown e-mail, no password set and a wrong password all answer
 * the same 401 body after the same hashing work; 5 consecutive failures lock (team, e-mail) for 15 min
 * (403); after 2 failures of the account, or CHALLENGE_ADDRESS_FAILURES from the address, a try needs a solved proof-of-work
 * challenge (403 `challengeRequired`, `challengeExpired`, `challengeUsed` or `challengeInvalid`). The right password of a disabled member: 403 `disabled`; of a member whose domain requires its
 * single sign-on: 403 `ssoRequired`. Success: a new session (the old one, if any, is revoked) and a session-bound XSRF cookie — or,
 * with two-step sign-in on (or required by the team), `{twoStep}` and a pending sign-in (routes/two-step.ts).
 */
export const loginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, hasher, lockout, limiter, config, proofOfWork } = app.services;
  const addressFailures = { max: config.challengeAddressFailures, windowMs: ADDRESS_FAILURES_MS };

  app.post(
    '/account/login',
    { config: { body: 'json', auth: 'none' }, schema: loginSchema },
    async (request, reply) => {
      const limit = await limiter.hit(`login:ip:${clientAddress(request.ip)}`, {
        max: config.loginAddressLimit,
        windowMs: ADDRESS_WINDOW_MS,
      });
      if (!limit.allowed) {
        return reply
          .code(429)
          .header('Retry-After', String(limit.retryAfter))
          .send({ message: 'too many sign-in attempts from this address' });
      }
      const teamName = normaliseTeam(request.body.teamName);
      const email = normaliseEmail(request.body.email);
      const standing = await lockout.standing(teamName, email);
      if (standing.locked) return reply.code(403).send(LOCKED);
      // Once the account or the address shows failures, each further try costs a solved challenge
      // (before the hashing, which it is there to spare).
      const failedHere = `login-failed:ip:${clientAddress(request.ip)}`;
      if (
        standing.failures >= PROOF_AFTER_FAILURES ||
        (await limiter.count(failedHere, addressFailures)) >= addressFailures.max
      ) {
        const refusal = await proofOfWork.spend(request.body.proof);
        if (refusal) return refuseProof(reply, refusal);
      }

      const user = await repos.users.findSignInCandidate(teamName, email);

      // Always hash: with no user (or no password) the hasher derives against a random salt, so every
      // failure kind costs the same time.
      const valid = await hasher.verify(request.body.password, user?.password_hash ?? null);
      if (!user || !valid) {
        if (user) await recordFailedSignIn(request, user.id, 'password');
        await limiter.hit(failedHere, addressFailures);
        const { locked } = await lockout.recordFailure(teamName, email);
        return locked ? reply.code(403).send(LOCKED) : reply.code(401).send(INVALID);
      }
      // An administrator's lock, and that an administrator turned the account off, show only to someone
      // who knows the password — told so, since waiting would not help them.
      if (user.disabled_at !== null) return reply.code(403).send(DISABLED);
      if (user.locked) return reply.code(403).send(LOCKED);
      if (await ssoRequired(repos, user.id)) return reply.code(403).send(SSO_REQUIRED);

      // Remember the language the user signs in with: their mail goes out in it.
      const language = requestLanguage(request);
      if (language && language !== user.language) {
        await repos.users.setLanguage(user.id, language);
      }
      if (hasher.needsRehash(user.password_hash!)) {
        const upgraded = await hasher.hash(request.body.password);
        await repos.users.upgradePasswordHash(user.id, upgraded);
      }
      // Two-step sign-in on (or required by the team and not set up yet): no session until the second
      // step is done, and the failure count stands until then — else a known password would reset it
      // between guesses of the code.
      const totp = await repos.twoStep.totpOf(user.id);
      const on = totp !== undefined && totp.confirmed_at !== null;
      const mustEnrol = !on && user.require_two_step === 1;
      if (on || mustEnrol) {
        await beginSecondStep(request, reply, user.id, ['pwd'], mustEnrol);
        const passkeys = on ? await repos.passkeys.credentialIdsOf(user.id) : [];
        const methods: SecondStepMethod[] = on ? ['totp', 'recovery'] : [];
        if (passkeys.length) methods.push('passkey');
        return { twoStep: { methods, enrol: mustEnrol } };
      }
      await lockout.clear(teamName, email);
      await beginSession(request, reply, user.id, ['pwd']);
      await recordSignIn(request, user.id, 'password');
      return { authenticated: true as const };
    },
  );
};
