import { randomInt } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignUpsTable } from '../db/schema';
import { recordActivity, recordSignIn } from '../lib/activity';
import { hmac, randomToken, safeEqual, sha256 } from '../lib/crypto';
import { answerLanguage } from '../lib/language';
import { cleanName } from '../lib/names';
import { clientAddress, normaliseEmail, normaliseTeam } from '../lib/normalise';
import { sendInBackground } from '../lib/notify';
import { requireProof } from '../lib/proof-of-work';
import { checkNewPassword, checkPassword, policyText, type NewPasswordProblem } from '../lib/password-policy';
import { beginSession } from '../lib/session';
import { addressProblem, isOffensive } from '../lib/team-addresses';
import { mailBrand, signUpMail } from '../mail/compose';
import { serverText } from '../mail/texts';
import {
  SIGN_UP_CODE_DIGITS,
  SIGN_UP_CODE_MINUTES,
  SIGN_UP_PENDING_HOURS,
  SIGN_UP_RESEND_SECONDS,
} from '../../../src/contract/sign-up';
import { safeReturnUrl } from '../../../src/contract/return-url';
import {
  signUpCompleteSchema,
  signUpLinkSchema,
  signUpStartSchema,
  signUpTeamSchema,
  signUpVerifySchema,
  type SignUpVerified,
} from '../../../src/contract/schemas/sign-up';

export const SIGN_UP_CODE_MS = SIGN_UP_CODE_MINUTES * 60_000;
export const SIGN_UP_PENDING_MS = SIGN_UP_PENDING_HOURS * 3600_000;
/**
 * The lockout's scope for sign-up codes: wrong codes for an address count as wrong passwords do, under
 * a name no team can have (so they neither lock nor are unlocked by a team's sign-in).
 */
export const SIGN_UP_LOCK_SCOPE = '(sign-up)';

/** Per client address: an office behind one address starts few teams. */
const ADDRESS_LIMIT = { max: 20, windowMs: 15 * 60_000 };
/** Mails to one inbox in an hour. */
const INBOX_LIMIT = { max: 5, windowMs: 60 * 60_000 };
/** The address checks of one client address (debounced typing). */
const CHECK_LIMIT = { max: 300, windowMs: 15 * 60_000 };
const CODE_WINDOW_MS = 5 * 60_000;

const NOT_FOUND = { message: 'not found' };
const WRONG_CODE = { message: 'the code is not right', code: 'wrongCode', field: 'code' };
const LOCKED = { message: 'too many wrong codes: try again later', code: 'locked' };
const GONE = {
  message: 'this sign-up was finished, replaced or has expired: start again',
  code: 'signUpGone',
};
const ADDRESS_REFUSALS = {
  invalid: 'a team address has 3 to 40 lower-case letters, digits and single inner hyphens',
  reserved: 'this address is reserved',
  offensive: 'choose another address',
  taken: 'a team has this address already',
} as const;

/** Six digits, uniformly drawn (leading zeros kept). */
const newCode = () => String(randomInt(0, 10 ** SIGN_UP_CODE_DIGITS)).padStart(SIGN_UP_CODE_DIGITS, '0');

const verified = (row: SignUpsTable, ticket: string): SignUpVerified => ({
  ticket,
  email: row.email,
  name: row.name,
  teamName: row.team_name,
  address: row.address,
});

/**
 * Starting a team without an operator (docs/decisions/sign-up.md), when SIGN_UP=open: the team's name
 * and address, the person's name and work address; one mail with a six-digit code and a one-click link
 * (ten minutes, single use, wrong codes counted by the lockout) verifies the address before anything is
 * made (the request carries a solved proof-of-work challenge); then a password (the policy and the
 * breach check) or a passkey, and the team is made with the
 * person as its owner, signed in. Nothing here depends on whether the address is anyone's already.
 */
export const signUpRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, config, limiter, lockout, hasher } = app.services;
  const secret = app.services.keys.hmacSecret;

  // Off: as if the calls did not exist.
  app.addHook('onRequest', async (_request, reply) => {
    if (!config.signUpOpen) return reply.code(404).send(NOT_FOUND);
  });

  /** The code's keyed hash, bound to the address it was mailed to (one row per address). */
  const codeHash = (email: string, code: string) => hmac(secret, `sign-up:${email}:${code}`);
  const limited = (request: FastifyRequest, reply: FastifyReply, what: string, limit = ADDRESS_LIMIT) =>
    limiter.refuse(reply, `signup:${what}:${clientAddress(request.ip)}`, limit);
  const codeLimit = { max: config.loginAddressLimit, windowMs: CODE_WINDOW_MS };
  const field = (reply: FastifyReply, status: number, name: string, code: string, message: string) =>
    reply.code(status).send({ message, code, field: name });

  app.get(
    '/account/signup/team',
    { config: { auth: 'none' }, schema: signUpTeamSchema },
    async (request, reply) => {
      if (await limited(request, reply, 'check', CHECK_LIMIT)) return reply;
      const address = normaliseTeam(request.query.address);
      const problem = await addressProblem(repos, address);
      return problem ? { address, available: false, problem } : { address, available: true };
    },
  );

  app.post(
    '/account/signup',
    {
      config: { body: 'json', auth: 'none', invalid: { email: 'invalidEmail' } },
      schema: signUpStartSchema,
      // As forgot password: no mail leaves without a solved challenge (lib/proof-of-work.ts).
      preHandler: requireProof(),
    },
    async (request, reply) => {
      if (await limited(request, reply, 'ip')) return reply;
      const teamName = cleanName(request.body.teamName);
      if (!('name' in teamName)) return field(reply, 400, 'teamName', 'invalidName', teamName.message);
      if (isOffensive(teamName.name))
        return field(reply, 400, 'teamName', 'offensive', 'choose another name for the team');
      const address = normaliseTeam(request.body.address);
      const problem = await addressProblem(repos, address);
      if (problem) return field(reply, 400, 'address', problem, ADDRESS_REFUSALS[problem]);
      const name = cleanName(request.body.name);
      if (!('name' in name)) return field(reply, 400, 'name', 'invalidName', name.message);
      const email = normaliseEmail(request.body.email);
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
        return field(reply, 400, 'email', 'invalidEmail', 'not an e-mail address');
      if (await limiter.refuse(reply, `signup:email:${sha256(email)}`, INBOX_LIMIT)) return reply;

      const code = newCode();
      const token = randomToken(32);
      const now = clock.now();
      const language = answerLanguage(request);
      const signUpId = await repos.signUps.begin({
        email,
        name: name.name,
        team_name: teamName.name,
        address,
        language,
        code_hash: codeHash(email, code),
        link_hash: sha256(token),
        code_expires_at: now + SIGN_UP_CODE_MS,
        created_at: now,
        expires_at: now + SIGN_UP_PENDING_MS,
      });
      // Built from PUBLIC_URL, never from the request's Host header.
      const query = new URLSearchParams({ id: signUpId, token });
      const returnUrl = safeReturnUrl(request.body.returnUrl, new URL(config.publicUrl).origin);
      if (returnUrl) query.set('ReturnUrl', returnUrl);
      const link = `${config.publicUrl}/signup?${query}`;
      const mail = signUpMail({
        language,
        brand: mailBrand(config.brand),
        name: name.name,
        team: teamName.name,
        code,
        link,
      });
      sendInBackground(request, { to: email, ...mail });
      return reply
        .code(202)
        .send({ signUpId, expiresIn: SIGN_UP_CODE_MS / 1000, resendAfter: SIGN_UP_RESEND_SECONDS });
    },
  );

  app.post(
    '/account/signup/verify',
    { config: { body: 'json', auth: 'none' }, schema: signUpVerifySchema },
    async (request, reply) => {
      if (await limited(request, reply, 'code', codeLimit)) return reply;
      const now = clock.now();
      const row = await repos.signUps.byId(request.body.signUpId, now);
      if (row && (await lockout.isLocked(SIGN_UP_LOCK_SCOPE, row.email))) return reply.code(429).send(LOCKED);
      // Hashed whether or not there is a sign-up to compare with: the same work for every id.
      const presented = codeHash(row?.email ?? 'none', request.body.code.replace(/[\s-]/g, ''));
      if (!row || row.code_expires_at <= now || !safeEqual(presented, row.code_hash)) {
        if (!row) return reply.code(400).send(WRONG_CODE);
        const { locked } = await lockout.recordFailure(SIGN_UP_LOCK_SCOPE, row.email);
        if (!locked) return reply.code(400).send(WRONG_CODE);
        // The mail must not outlive the lock.
        await repos.signUps.endCode(row.id);
        return reply.code(429).send(LOCKED);
      }
      const ticket = randomToken(32);
      // Typed twice at once, or the link opened meanwhile: one of them has it.
      if (!(await repos.signUps.verify(row.id, row.code_hash, sha256(ticket), now)))
        return reply.code(400).send(WRONG_CODE);
      await lockout.clear(SIGN_UP_LOCK_SCOPE, row.email);
      return verified(row, ticket);
    },
  );

  app.post(
    '/account/signup/link',
    { config: { body: 'json', auth: 'none' }, schema: signUpLinkSchema },
    async (request, reply) => {
      if (await limited(request, reply, 'code', codeLimit)) return reply;
      const now = clock.now();
      const row = await repos.signUps.byLink(request.body.signUpId, sha256(request.body.token), now);
      if (!row) return reply.code(410).send(GONE);
      if (await lockout.isLocked(SIGN_UP_LOCK_SCOPE, row.email)) return reply.code(429).send(LOCKED);
      const ticket = randomToken(32);
      if (!(await repos.signUps.verify(row.id, row.code_hash, sha256(ticket), now)))
        return reply.code(410).send(GONE);
      return verified(row, ticket);
    },
  );

  app.post(
    '/account/signup/complete',
    { config: { body: 'json', auth: 'none' }, schema: signUpCompleteSchema },
    async (request, reply) => {
      if (await limited(request, reply, 'complete')) return reply;
      const { body } = request;
      const ticketHash = sha256(body.ticket);
      const address = normaliseTeam(body.address);
      // The address before the ticket: when a second completion of the same ticket races the first,
      // the team the first made takes the address, and the spent ticket must still answer 410, not 409.
      const problem = await addressProblem(repos, address);
      const row = await repos.signUps.byTicket(ticketHash, clock.now());
      if (!row) return reply.code(410).send(GONE);
      const teamName = cleanName(body.teamName);
      if (!('name' in teamName)) return field(reply, 400, 'teamName', 'invalidName', teamName.message);
      if (isOffensive(teamName.name))
        return field(reply, 400, 'teamName', 'offensive', 'choose another name for the team');
      if (problem)
        return field(reply, problem === 'taken' ? 409 : 400, 'address', problem, ADDRESS_REFUSALS[problem]);

      let passwordHash: string | null = null;
      let unchecked = false;
      if (body.method === 'password') {
        const language = answerLanguage(request, row.language);
        const refuse = (policy: NewPasswordProblem) =>
          field(reply, 400, 'password', policy, policyText(language, policy));
        const ruled = checkPassword(body.password, row.email);
        if (ruled) return refuse(ruled);
        if (body.password !== body.confirmPassword)
          return field(
            reply,
            400,
            'confirmPassword',
            'confirmMismatch',
            serverText(language, 'confirmMismatch'),
          );
        // The breach check last: no request leaves for a password refused anyway.
        const verdict = await checkNewPassword(request, body.password, row.email);
        if (verdict.problem) return refuse(verdict.problem);
        unchecked = verdict.unchecked;
        passwordHash = await hasher.hash(body.password);
      }

      const outcome = await repos.signUps.complete({
        ticketHash,
        teamName: teamName.name,
        address,
        passwordHash,
        now: clock.now(),
      });
      if (!outcome.ok && outcome.reason === 'taken')
        return field(reply, 409, 'address', 'taken', ADDRESS_REFUSALS.taken);
      if (!outcome.ok) return reply.code(410).send(GONE);
      if (unchecked) await recordActivity(request, outcome.userId, 'breachCheckSkipped');
      // As after any sign-in: a fresh session; with no password yet, the mailed code was the proof.
      await beginSession(request, reply, outcome.userId, passwordHash ? ['pwd'] : ['otp']);
      await recordSignIn(request, outcome.userId, 'signUp');
      return { authenticated: true as const };
    },
  );
};
