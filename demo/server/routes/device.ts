import { randomInt } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { randomToken, sha256 } from '../lib/crypto';
import { callerOf } from '../plugins/auth';
import { deviceCodeSchema } from '../../../src/contract/schemas/device';

/** RFC 8628-shaped device authorization, ten minutes. */
export const DEVICE_CODE_TTL_S = 600;
export const DEVICE_POLL_INTERVAL_S = 5;
const GENERATE_LIMIT = { max: 10, windowMs: 10 * 60_000 };
// User codes avoid letters people confuse (RFC 8628 §6.1).
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

function userCode(): string {
  const chars = Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/**
 * QR code login (spec §2, §7): the signed-in user asks for a device authorization, shown as a QR code
 * that the mobile app scans and exchanges at /connect/token (RFC 8628 grant) for tokens of this user.
 */
export const deviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, limiter, config } = app.services;

  app.post(
    '/api/DeviceCode/generate',
    { config: { body: 'none', auth: 'bearer' }, schema: deviceCodeSchema },
    async (request, reply) => {
      const caller = callerOf(request);
      const { allowed, retryAfter } = await limiter.hit(`device-code:${caller.user.id}`, GENERATE_LIMIT);
      if (!allowed) {
        return reply
          .code(429)
          .header('Retry-After', String(retryAfter))
          .send({ message: 'too many QR codes, try again later' });
      }
      const deviceCode = randomToken(32);
      const code = userCode();
      const now = clock.now();
      await repos.deviceCodes.insert({
        code_hash: sha256(deviceCode),
        user_code: code,
        user_id: caller.user.id,
        created_at: now,
        expires_at: now + DEVICE_CODE_TTL_S * 1000,
        used_at: null,
      });
      return {
        device_code: deviceCode,
        user_code: code,
        verification_uri: `${config.publicUrl}/manage/qr`,
        expires_in: DEVICE_CODE_TTL_S,
        interval: DEVICE_POLL_INTERVAL_S,
      };
    },
  );
};
