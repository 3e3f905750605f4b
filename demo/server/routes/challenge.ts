import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientAddress } from '../lib/normalise';
import { challengeSchema } from '../../../src/contract/schemas/challenge';

/** Issuing costs one key derivation: an address may ask this often (a solve takes about a second). */
const ADDRESS_LIMIT = { max: 60, windowMs: 5 * 60_000 };

/**
 * GET /account/challenge: a proof-of-work challenge for a route that requires one (lib/proof-of-work.ts).
 * Public; nothing is stored until a solution is spent.
 */
export const challengeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { limiter, proofOfWork } = app.services;
  app.get(
    '/account/challenge',
    { config: { auth: 'none' }, schema: challengeSchema },
    async (request, reply) => {
      if (await limiter.refuse(reply, `challenge:ip:${clientAddress(request.ip)}`, ADDRESS_LIMIT))
        return reply;
      return proofOfWork.issue();
    },
  );
};
