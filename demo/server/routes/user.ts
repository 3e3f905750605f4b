import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { PERMISSIONS } from '../../../src/contract/permissions';
import type { BearerCaller } from '../lib/bearer';
import { recordActivity } from '../lib/activity';
import { answerLanguage } from '../lib/language';
import { cleanName } from '../lib/names';
import { notifyPasswordChanged } from '../lib/notify';
import { checkNewPassword, checkPassword, policyText, type NewPasswordProblem } from '../lib/password-policy';
import { serverText } from '../mail/texts';
import { callerOf } from '../plugins/auth';
import { sessionOf } from '../lib/session';
import {
  changePasswordSchema,
  passwordOptionsSchema,
  setPasswordSchema,
} from '../../../src/contract/schemas/password';
import { permissionsSchema, renameSchema } from '../../../src/contract/schemas/user';

/** The server's answer when the current password is wrong (spec §5: the screen marks the old field). */
export const INVALID_PASSWORD = 'InvalidPassword';

/**
 * The signed-in user's own account (spec §7): permissions, password options, change or set the password,
 * the name. Every call is bearer-authenticated and takes the user and team from the token — never from
 * the body.
 */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, hasher, sessions } = app.services;

  /** The account details the notice mail needs. */
  const account = async (caller: BearerCaller) => ({
    ...caller.user,
    ...(await repos.teams.brandingOf(caller.user.team_id)),
  });

  /** After a password change: end every other session of the user (the caller's own stays). */
  async function endOtherSessions(caller: BearerCaller, request: Parameters<typeof sessionOf>[0]) {
    const own = (await sessionOf(request))?.id_hash;
    let keep = own;
    if (!keep && caller.claims.sid) keep = await repos.sessions.idHashOf(caller.claims.sid);
    await sessions.revokeAllForUser(caller.user.id, keep);
  }

  app.get(
    '/api/user/permissions',
    { config: { auth: 'bearer' }, schema: permissionsSchema },
    async (request) => {
      const caller = callerOf(request);
      const granted = await repos.users.permissionsOf(caller.user.id);
      return Object.fromEntries(PERMISSIONS.map((permission) => [permission, granted.has(permission)]));
    },
  );

  app.get(
    '/api/user/password',
    { config: { auth: 'bearer' }, schema: passwordOptionsSchema },
    async (request) => {
      const caller = callerOf(request);
      const external = await repos.identities.listFor(caller.user.id);
      return {
        hasPassword: caller.user.password_hash !== null,
        password_changed: caller.user.password_changed_at
          ? new Date(caller.user.password_changed_at).toISOString()
          : null,
        externalAccounts: external.map((row) => ({ providerName: row.provider, userName: row.user_name })),
      };
    },
  );

  /**
   * The policy's reason (the breach check last: nothing leaves the server for a password refused
   * anyway), or the mismatch of new and confirm, in the caller's language; `unchecked` when the breach
   * check had no answer and the password is accepted without it.
   */
  async function refusal(request: FastifyRequest, caller: BearerCaller, next: string, confirm: string) {
    const language = answerLanguage(request, caller.user.language);
    const policy = (problem: NewPasswordProblem) => ({
      refused: { message: policyText(language, problem), code: problem },
    });
    const ruled = checkPassword(next, caller.user.email);
    if (ruled) return policy(ruled);
    if (next !== confirm)
      return { refused: { message: serverText(language, 'confirmMismatch'), code: 'confirmMismatch' } };
    const { problem, unchecked } = await checkNewPassword(request, next, caller.user.email);
    if (problem) return policy(problem);
    return { refused: null, unchecked };
  }

  async function storePassword(
    request: Parameters<typeof sessionOf>[0],
    caller: BearerCaller,
    password: string,
    guard: 'has' | 'none',
    unchecked: boolean,
    endOthers = true,
  ): Promise<boolean> {
    const hash = await hasher.hash(password);
    const now = clock.now();
    // Conditional on the state the request was checked against, so a racing change cannot be overwritten.
    if (!(await repos.users.setPassword(caller.user.id, hash, now, guard))) return false;
    if (endOthers) await endOtherSessions(caller, request);
    await recordActivity(request, caller.user.id, guard === 'has' ? 'passwordChanged' : 'passwordSet');
    if (unchecked) await recordActivity(request, caller.user.id, 'breachCheckSkipped');
    notifyPasswordChanged(request, await account(caller), now);
    return true;
  }

  /** POST: change an existing password; the current one is required (400 InvalidPassword otherwise). */
  app.post(
    '/api/user/password',
    { config: { body: 'json', auth: 'bearer' }, schema: changePasswordSchema },
    async (request, reply) => {
      const caller = callerOf(request);
      const { oldPassword, newPassword, confirmNewPassword } = request.body;
      if (!caller.user.password_hash)
        return reply.code(409).send({ message: 'no password is set: use PUT to set one' });
      if (!(await hasher.verify(oldPassword, caller.user.password_hash))) {
        return reply.code(400).send({ message: INVALID_PASSWORD });
      }
      const { refused, unchecked = false } = await refusal(request, caller, newPassword, confirmNewPassword);
      if (refused) return reply.code(400).send(refused);
      const endOthers = request.body.signOutOthers !== false;
      if (!(await storePassword(request, caller, newPassword, 'has', unchecked, endOthers))) {
        return reply.code(409).send({ message: 'the password changed meanwhile' });
      }
      return { message: 'password changed' };
    },
  );

  /** PUT: set a first password (an account that signs in with a provider only). 409 if one exists. */
  app.put(
    '/api/user/password',
    { config: { body: 'json', auth: 'bearer' }, schema: setPasswordSchema },
    async (request, reply) => {
      const caller = callerOf(request);
      if (caller.user.password_hash) return reply.code(409).send({ message: 'a password is already set' });
      const { newPassword, confirmNewPassword } = request.body;
      const { refused, unchecked = false } = await refusal(request, caller, newPassword, confirmNewPassword);
      if (refused) return reply.code(400).send(refused);
      if (!(await storePassword(request, caller, newPassword, 'none', unchecked))) {
        return reply.code(409).send({ message: 'a password is already set' });
      }
      return { message: 'password set' };
    },
  );

  /** POST /api/user: the name, trimmed, 1–50 characters, no control characters. */
  app.post(
    '/api/user',
    { config: { body: 'json', auth: 'bearer' }, schema: renameSchema },
    async (request, reply) => {
      const caller = callerOf(request);
      const cleaned = cleanName(request.body.name);
      if (!('name' in cleaned)) return reply.code(400).send({ message: cleaned.message });
      await repos.users.setName(caller.user.id, cleaned.name);
      return { name: cleaned.name };
    },
  );
};
