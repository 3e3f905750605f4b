import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Passkey } from '../db/schema';
import { recordActivity, recordSignIn } from '../lib/activity';
import { cookiesOf } from '../lib/cookies';
import { randomToken } from '../lib/crypto';
import { cleanName } from '../lib/names';
import { clientAddress } from '../lib/normalise';
import { notifySecurity } from '../lib/notify';
import { PasskeyRefused, PasskeyUnknown, registrantOf } from '../lib/passkeys';
import { PENDING_COOKIE, PENDING_MS } from '../lib/two-step';
import { callerOf } from '../plugins/auth';
import { beginSession, cookieOptions } from '../lib/session';
import { SSO_REQUIRED, ssoRequired } from '../lib/sso-rule';
import {
  authenticationOptionsSchema,
  listSchema,
  passkeySignInSchema,
  reauthOptionsSchema,
  registerSchema,
  registrationOptionsSchema,
  removeSchema,
  renameSchema,
  wellKnownSchema,
  type PasskeyView,
} from '../../../src/contract/schemas/passkeys';

/** The cookie that binds a passkey sign-in's challenge to the browser that asked for it. */
export const WEBAUTHN_COOKIE = 'acct_webauthn';
const ADDRESS_WINDOW_MS = 5 * 60_000;
/** Registrations per user per 5 minutes. */
const USER_LIMIT = { max: 20, windowMs: 5 * 60_000 };
const REFUSED = { message: 'the passkey was not accepted', code: 'passkeyRefused' };
const UNKNOWN = {
  message: 'no account has this passkey (removed, or never set up here)',
  code: 'passkeyUnknown',
};
/** The team has passkey sign-in turned off (as the first step: as the second it is always allowed). */
const TURNED_OFF = { message: 'this team does not allow signing in with a passkey', code: 'passkeysOff' };

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function view(passkey: Passkey): PasskeyView {
  return {
    id: passkey.id,
    name: passkey.name,
    createdAt: iso(passkey.created_at)!,
    lastUsedAt: iso(passkey.last_used_at),
    synced: passkey.device_type === 'multiDevice',
  };
}

/**
 * Passkeys: a signed-in user adds (named), lists, renames and removes theirs — never the last way to
 * sign in — and anyone signs in with one (discoverable: the passkey names its user), which also
 * finishes a pending two-step sign-in of the browser. Every refusal of a sign-in is the same 401.
 */
export const passkeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, passkeys, limiter, config } = app.services;
  const browserCookie = {
    ...cookieOptions(config, true),
    path: '/account/passkey',
    maxAge: PENDING_MS / 1000,
  };

  app.get(
    '/.well-known/webauthn',
    { config: { auth: 'none' }, schema: wellKnownSchema },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return { origins: passkeys.origins };
    },
  );

  app.post(
    '/api/user/passkeys/options',
    { config: { body: 'none', auth: 'bearer' }, schema: registrationOptionsSchema },
    async (request, reply) => {
      const caller = callerOf(request);
      if (await limiter.refuse(reply, `passkeys:user:${caller.user.id}`, USER_LIMIT)) return reply;
      return passkeys.registrationOptions(registrantOf(caller));
    },
  );

  app.post(
    '/api/user/passkeys',
    { config: { body: 'json', auth: 'bearer', invalid: { name: 'invalidName' } }, schema: registerSchema },
    async (request, reply) => {
      const caller = callerOf(request);
      const name = cleanName(request.body.name);
      if (!('name' in name))
        return reply.code(400).send({ message: name.message, code: 'invalidName', field: 'name' });
      let passkey: Passkey;
      try {
        // The body's extension results are `unknown` by schema; the verifier reads what it knows.
        passkey = await passkeys.verifyRegistration(
          registrantOf(caller),
          request.body.response as Parameters<typeof passkeys.verifyRegistration>[1],
          name.name,
        );
      } catch (error) {
        if (!(error instanceof PasskeyRefused)) throw error;
        request.log.info({ reason: error.message }, 'passkey registration refused');
        return reply.code(400).send(REFUSED);
      }
      if (!(await repos.passkeys.insert(passkey)))
        return reply
          .code(409)
          .send({ message: 'this passkey is already registered', code: 'alreadyRegistered' });
      await recordActivity(request, caller.user.id, 'passkeyAdded');
      await notifySecurity(request, caller.user.id, 'passkeyAdded', { passkey: passkey.name });
      return reply.code(201).send(view(passkey));
    },
  );

  app.post(
    '/api/user/passkeys/reauth-options',
    { config: { body: 'none', auth: 'bearer' }, schema: reauthOptionsSchema },
    async (request, reply) => {
      const caller = callerOf(request);
      if (await limiter.refuse(reply, `passkeys:user:${caller.user.id}`, USER_LIMIT)) return reply;
      return passkeys.reauthenticationOptions(registrantOf(caller));
    },
  );

  app.get('/api/user/passkeys', { config: { auth: 'bearer' }, schema: listSchema }, async (request) => {
    const list = await repos.passkeys.listFor(callerOf(request).user.id);
    return { passkeys: list.map(view) };
  });

  app.patch(
    '/api/user/passkeys/:id',
    { config: { body: 'json', auth: 'bearer', invalid: { name: 'invalidName' } }, schema: renameSchema },
    async (request, reply) => {
      const { user } = callerOf(request);
      const name = cleanName(request.body.name);
      if (!('name' in name))
        return reply.code(400).send({ message: name.message, code: 'invalidName', field: 'name' });
      const renamed = await repos.passkeys.rename(user.id, request.params.id, name.name);
      if (!renamed) return reply.code(404).send({ message: 'no such passkey' });
      return view(renamed);
    },
  );

  app.delete(
    '/api/user/passkeys/:id',
    { config: { auth: 'bearer' }, schema: removeSchema },
    async (request, reply) => {
      const { user } = callerOf(request);
      const outcome = await repos.passkeys.remove(user.id, request.params.id);
      if (outcome === 'not-found') return reply.code(404).send({ message: 'no such passkey' });
      if (outcome === 'only-sign-in')
        return reply.code(409).send({ message: 'cannot remove the only sign-in option', code: 'onlySignIn' });
      await recordActivity(request, user.id, 'passkeyRemoved');
      return reply.code(204).send();
    },
  );

  /** Address limit for the sign-in calls; true when refused (the answer is sent). */
  const limited = (request: FastifyRequest, reply: FastifyReply) =>
    limiter.refuse(reply, `passkey:ip:${clientAddress(request.ip)}`, {
      max: config.loginAddressLimit,
      windowMs: ADDRESS_WINDOW_MS,
    });

  app.post(
    '/account/passkey/options',
    { config: { body: 'none', auth: 'none' }, schema: authenticationOptionsSchema },
    async (request, reply) => {
      if (await limited(request, reply)) return reply;
      // The sign-in page names its team: one that has turned passkeys off gets no ceremony (the sign-in
      // call checks again, on the passkey's own team).
      const { team } = request.query;
      if (
        team !== undefined &&
        (await repos.teams.findByName(team.trim().toLowerCase()))?.passkeys_enabled === 0
      )
        return reply.code(403).send(TURNED_OFF);
      // A fresh binding per ceremony: the challenge works only with this browser's cookie.
      const browser = randomToken(32);
      reply.setCookie(WEBAUTHN_COOKIE, browser, browserCookie);
      return passkeys.authenticationOptions(browser);
    },
  );

  app.post(
    '/account/passkey',
    { config: { body: 'json', auth: 'none' }, schema: passkeySignInSchema },
    async (request, reply) => {
      if (await limited(request, reply)) return reply;
      const cookies = cookiesOf(request);
      const browser = cookies[WEBAUTHN_COOKIE];
      if (!browser || browser.length > 200) return reply.code(401).send(REFUSED);
      let signedIn;
      try {
        signedIn = await passkeys.verifyAuthentication(
          browser,
          request.body.response as Parameters<typeof passkeys.verifyAuthentication>[1],
          request.body.teamName,
        );
      } catch (error) {
        if (!(error instanceof PasskeyRefused)) throw error;
        request.log.info({ reason: error.message }, 'passkey sign-in refused');
        return reply.code(401).send(error instanceof PasskeyUnknown ? UNKNOWN : REFUSED);
      }
      reply.clearCookie(WEBAUTHN_COOKIE, browserCookie);
      // The second step of this browser's pending sign-in, when it is the same user's: its first step
      // counts too; any other pending sign-in of the browser simply ends — unless the passkey was
      // offered as that second step, which only the pending user's own passkey can be.
      const pending = await app.services.twoStep.pendingOf(cookies[PENDING_COOKIE]);
      if (request.body.secondStep && pending?.pending.user_id !== signedIn.userId) {
        request.log.info('passkey of another user at a second step');
        return reply.code(401).send(REFUSED);
      }
      const secondStep = pending?.pending.user_id === signedIn.userId;
      if (!secondStep && (await repos.teams.findByName(signedIn.teamName))?.passkeys_enabled === 0) {
        request.log.info('passkey sign-in of a team that turned it off');
        return reply.code(403).send(TURNED_OFF);
      }
      if (!secondStep && (await ssoRequired(repos, signedIn.userId))) {
        request.log.info('passkey sign-in of an address that must use single sign-on');
        return reply.code(403).send(SSO_REQUIRED);
      }
      const amr = [...signedIn.amr];
      if (pending && secondStep) {
        if (await repos.twoStep.finishPending(pending.pending.id_hash, app.services.clock.now())) {
          await app.services.lockout.clear(pending.teamName, pending.email);
          amr.unshift(...pending.pending.amr.split(' '));
        }
      }
      await beginSession(request, reply, signedIn.userId, [...new Set(amr)]);
      await recordSignIn(request, signedIn.userId, 'passkey');
      return { authenticated: true as const };
    },
  );
};
