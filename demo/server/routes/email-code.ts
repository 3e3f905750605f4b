import { randomInt } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LiveEmailCode } from '../db/email-codes';
import { recordFailedSignIn, recordSignIn } from '../lib/activity';
import { cookiesOf } from '../lib/cookies';
import { hmac, randomToken, safeEqual, sha256 } from '../lib/crypto';
import { answerLanguage, requestLanguage } from '../lib/language';
import { clientAddress, normaliseEmail, normaliseTeam } from '../lib/normalise';
import { requireProof } from '../lib/proof-of-work';
import { sendInBackground } from '../lib/notify';
import type { Limit } from '../lib/rate-limit';
import { beginSecondStep, beginSession, cookieOptions, issueXsrfCookie } from '../lib/session';
import { SSO_REQUIRED, ssoRequired } from '../lib/sso-rule';
import { emailCodeMail, mailBrand } from '../mail/compose';
import {
  EMAIL_CODE_DIGITS,
  EMAIL_CODE_MINUTES,
  EMAIL_CODE_RESEND_SECONDS,
} from '../../../src/contract/email-code';
import {
  emailCodeLinkSchema,
  emailCodeRequestSchema,
  emailCodeVerifySchema,
  type EmailCodeSignedIn,
} from '../../../src/contract/schemas/email-code';
import type { SecondStepMethod } from '../../../src/contract/schemas/two-step';
import { safeReturnUrl } from '../../../src/contract/return-url';

export const EMAIL_CODE_MS = EMAIL_CODE_MINUTES * 60_000;
/** The cookie naming the browser that asked: its link signs in there only. */
export const EMAIL_CODE_COOKIE = 'acct_email_code';
/** Rows that ended a day ago are forgotten when the user asks again. */
const FORGET_AFTER_MS = 24 * 3600_000;
/** As forgot-password: per client address, and per (team, address) whether or not it is a member's. */
const ADDRESS_LIMIT = { max: 20, windowMs: 15 * 60_000 };
const ACCOUNT_LIMIT = { max: 5, windowMs: 60 * 60_000 };
/** Code and link attempts per client address (the lockout guards each account), as for sign-in. */
const CHECK_WINDOW_MS = 5 * 60_000;

const SENT = {
  message: 'if the address is a member’s, a code is on its way',
  expiresIn: EMAIL_CODE_MS / 1000,
  resendAfter: EMAIL_CODE_RESEND_SECONDS,
};
const NOT_OFFERED = { message: 'this team does not offer sign-in with an e-mail code', code: 'notOffered' };
const INVALID = { message: 'the code is not valid', code: 'invalidCode', field: 'code' };
const GONE = { message: 'this sign-in link was used, replaced or has expired', code: 'codeGone' };
const OTHER_BROWSER = {
  message: 'this link signs in only in the browser that asked for it: type the code instead',
  code: 'otherBrowser',
};
const LOCKED = { message: 'account locked' };
const DISABLED = { message: 'an administrator has turned this account off', code: 'disabled' };

/** Six digits, uniformly drawn (leading zeros kept). */
const newCode = () => String(randomInt(0, 10 ** EMAIL_CODE_DIGITS)).padStart(EMAIL_CODE_DIGITS, '0');
/** The code as typed or pasted: spaces and dashes do not matter. */
const typed = (code: string) => code.replace(/[\s-]/g, '');

/**
 * Sign-in with a code mailed to the member (a team's setting, off by default): one mail carries a
 * six-digit code and a one-click link, both for ten minutes and single use, the next mail superseding
 * them. The code works in any browser (with the address, or with the link's token when the link was
 * opened elsewhere); the link only in the browser that asked (its cookie). Wrong codes count towards
 * the lockout like wrong passwords, and the team's two-step rule applies after the code as after a
 * password (docs/decisions/email-code-sign-in.md).
 */
export const emailCodeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, limiter, lockout, config } = app.services;
  const secret = app.services.keys.hmacSecret;

  /** The code's keyed hash, bound to its row: a hash copied to another row does not match there. */
  const codeHash = (id: string, code: string) => hmac(secret, `email-code:${id}:${code}`);
  const limited = (reply: FastifyReply, bucket: string, limit: Limit) => limiter.refuse(reply, bucket, limit);
  const checkLimited = (request: FastifyRequest, reply: FastifyReply) =>
    limited(reply, `email-code:check:${clientAddress(request.ip)}`, {
      max: config.loginAddressLimit,
      windowMs: CHECK_WINDOW_MS,
    });
  const offered = async (teamName: string) => {
    const team = await repos.teams.findByName(teamName);
    return !!team && team.disabled === 0 && team.email_code_enabled === 1;
  };

  app.post(
    '/account/email-code',
    // Each mail costs a solved proof-of-work challenge, as a reset link does: mails are what a script
    // would ask for by the thousand.
    { config: { body: 'json', auth: 'none' }, schema: emailCodeRequestSchema, preHandler: requireProof() },
    async (request, reply) => {
      const teamName = normaliseTeam(request.body.teamName);
      const email = normaliseEmail(request.body.email);
      if (await limited(reply, `email-code:ip:${clientAddress(request.ip)}`, ADDRESS_LIMIT)) return reply;
      if (await limited(reply, `email-code:account:${teamName}:${email}`, ACCOUNT_LIMIT)) return reply;
      // Whether a team offers it is public (its sign-in page shows the button); a lock is kept for
      // unknown addresses too: neither says whether the address is a member's.
      if (!(await offered(teamName))) return reply.code(403).send(NOT_OFFERED);
      if (await lockout.isLocked(teamName, email)) return reply.code(403).send(LOCKED);

      // The browser that asks keeps its value (one browser, one binding); only its hash is stored.
      const held = cookiesOf(request)[EMAIL_CODE_COOKIE];
      const browser = held && /^[\w-]{43}$/.test(held) ? held : randomToken(32);
      reply.setCookie(EMAIL_CODE_COOKIE, browser, {
        ...cookieOptions(config, true),
        path: '/account/email-code',
        maxAge: EMAIL_CODE_MS / 1000,
      });
      await issueXsrfCookie(request, reply);

      // The same work whatever the address: the secrets are drawn and hashed before the member is
      // known; the mail goes out after the answer.
      const id = randomToken(16);
      const code = newCode();
      const token = randomToken(32);
      const row = {
        id,
        code_hash: codeHash(id, code),
        link_hash: sha256(token),
        browser_hash: sha256(browser),
      };
      const member = await repos.users.findEmailCodeMember(teamName, { email });
      if (!member || member.disabled_at !== null || (await ssoRequired(repos, member.id))) return SENT;

      const now = clock.now();
      await repos.emailCodes.issue(
        { ...row, user_id: member.id, created_at: now, expires_at: now + EMAIL_CODE_MS },
        now - FORGET_AFTER_MS,
      );
      // Built from PUBLIC_URL, never from the request's Host header.
      const query = new URLSearchParams({ token });
      const returnUrl = safeReturnUrl(request.body.returnUrl, new URL(config.publicUrl).origin);
      if (returnUrl) query.set('ReturnUrl', returnUrl);
      const link = `${config.publicUrl}/login/${encodeURIComponent(member.team_name)}/emailCode?${query}`;
      const mail = emailCodeMail({
        language: answerLanguage(request, member.language),
        brand: mailBrand(member.brand ?? config.brand),
        name: member.name,
        team: member.display_name,
        code,
        link,
      });
      sendInBackground(request, { to: member.email, ...mail });
      return SENT;
    },
  );

  type Member = NonNullable<Awaited<ReturnType<typeof repos.users.findEmailCodeMember>>>;

  /**
   * The code was right and is now used up: sign in as after a password — the member's and the team's
   * rules first, then the second step when the member has one (or the team requires one).
   */
  async function signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    member: Member,
    live: LiveEmailCode,
  ): Promise<EmailCodeSignedIn | FastifyReply> {
    if (!(await repos.emailCodes.consume(live.id, clock.now()))) return reply.code(410).send(GONE);
    if (member.disabled_at !== null) return reply.code(403).send(DISABLED);
    if (member.locked) return reply.code(403).send(LOCKED);
    if (await ssoRequired(repos, member.id)) return reply.code(403).send(SSO_REQUIRED);
    const language = requestLanguage(request);
    if (language && language !== member.language) await repos.users.setLanguage(member.id, language);
    const totp = await repos.twoStep.totpOf(member.id);
    const on = totp !== undefined && totp.confirmed_at !== null;
    const mustEnrol = !on && member.require_two_step === 1;
    if (on || mustEnrol) {
      // As after a password: the failure count stands until the second step is done.
      await beginSecondStep(request, reply, member.id, ['otp'], mustEnrol);
      const passkeys = on ? await repos.passkeys.credentialIdsOf(member.id) : [];
      const methods: SecondStepMethod[] = on ? ['totp', 'recovery'] : [];
      if (passkeys.length) methods.push('passkey');
      return { twoStep: { methods, enrol: mustEnrol } };
    }
    await lockout.clear(member.team_name, member.email);
    await beginSession(request, reply, member.id, ['otp']);
    await recordSignIn(request, member.id, 'emailCode');
    return { authenticated: true as const };
  }

  /** A wrong code: counted like a wrong password; the lock it may start ends the mailed code too. */
  async function wrongCode(
    request: FastifyRequest,
    reply: FastifyReply,
    teamName: string,
    email: string,
    member?: Member,
  ) {
    if (member) await recordFailedSignIn(request, member.id, 'emailCode');
    const { locked } = await lockout.recordFailure(teamName, email);
    if (!locked) return reply.code(401).send(INVALID);
    if (member) await repos.emailCodes.supersedeFor(member.id, clock.now());
    return reply.code(403).send(LOCKED);
  }

  app.post(
    '/account/email-code/verify',
    { config: { body: 'json', auth: 'none' }, schema: emailCodeVerifySchema },
    async (request, reply) => {
      if (await checkLimited(request, reply)) return reply;
      const teamName = normaliseTeam(request.body.teamName);
      if (!(await offered(teamName))) return reply.code(403).send(NOT_OFFERED);
      const now = clock.now();
      let member: Member | undefined;
      let live: LiveEmailCode | undefined;
      let email: string;
      if ('token' in request.body) {
        // The link opened in another browser: the token names the mail, the code proves it was read.
        live = await repos.emailCodes.liveByLink(sha256(request.body.token), now);
        member = live && (await repos.users.findEmailCodeMember(teamName, { id: live.user_id }));
        if (!live || !member) return reply.code(410).send(GONE);
        email = member.email;
      } else {
        email = normaliseEmail(request.body.email);
        member = await repos.users.findEmailCodeMember(teamName, { email });
        live = member && (await repos.emailCodes.liveFor(member.id, now));
      }
      if (await lockout.isLocked(teamName, email)) return reply.code(403).send(LOCKED);
      // Hashed whether or not there is a code to compare with: the same work for every address.
      const presented = codeHash(live?.id ?? 'none', typed(request.body.code));
      if (!live || !safeEqual(presented, live.code_hash))
        return wrongCode(request, reply, teamName, email, member);
      return signIn(request, reply, member!, live);
    },
  );

  app.post(
    '/account/email-code/link',
    { config: { body: 'json', auth: 'none' }, schema: emailCodeLinkSchema },
    async (request, reply) => {
      if (await checkLimited(request, reply)) return reply;
      const teamName = normaliseTeam(request.body.teamName);
      if (!(await offered(teamName))) return reply.code(403).send(NOT_OFFERED);
      const live = await repos.emailCodes.liveByLink(sha256(request.body.token), clock.now());
      const member = live && (await repos.users.findEmailCodeMember(teamName, { id: live.user_id }));
      if (!live || !member) return reply.code(410).send(GONE);
      const browser = cookiesOf(request)[EMAIL_CODE_COOKIE];
      // Another browser than the one that asked (a colleague's, or one a stranger sent the link to):
      // nothing is used up, and the page asks for the code, which only the mail's reader has.
      if (!browser || !safeEqual(sha256(browser), live.browser_hash))
        return reply.code(409).send(OTHER_BROWSER);
      if (await lockout.isLocked(member.team_name, member.email)) return reply.code(403).send(LOCKED);
      return signIn(request, reply, member, live);
    },
  );
};
