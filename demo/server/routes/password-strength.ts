import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answerLanguage } from '../lib/language';
import { clientAddress } from '../lib/normalise';
import { strengthSchema } from '../../../src/contract/schemas/password';

/**
 * An estimate costs up to a fifth of a second of the worker: enough for a person who types, pauses and
 * corrects a few passwords in a row, not for a flood.
 */
const ADDRESS_LIMIT = { max: 120, windowMs: 5 * 60_000 };

/**
 * POST /api/password/strength: how hard a new password is to guess (lib/password-strength.ts). Public —
 * a person signing up has no session yet — and keeps nothing: no row, no log line holds the password.
 */
export const passwordStrengthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { limiter, passwordStrength } = app.services;
  app.post(
    '/api/password/strength',
    { config: { body: 'json', auth: 'none' }, schema: strengthSchema },
    async (request, reply) => {
      if (await limiter.refuse(reply, `strength:ip:${clientAddress(request.ip)}`, ADDRESS_LIMIT))
        return reply;
      const { password, userInputs = [] } = request.body;
      const strength = await passwordStrength.estimate(password, userInputs, answerLanguage(request));
      if (!strength)
        return reply.code(503).header('Retry-After', '1').send({ message: 'server busy, try again shortly' });
      return strength;
    },
  );
};
