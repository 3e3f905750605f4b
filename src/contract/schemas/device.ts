import { Type } from 'typebox';
import { errors, type RouteSchema } from './common';

/**
 * `POST /api/DeviceCode/generate` (bearer, no body): a device authorization for the signed-in user,
 * RFC 8628's shape, shown as a QR code for the mobile app. 429 past the per-user limit.
 */
export const DeviceCodeReply = Type.Object(
  {
    device_code: Type.String(),
    user_code: Type.String(),
    verification_uri: Type.String(),
    /** Seconds. */
    expires_in: Type.Integer(),
    /** Seconds between polls. */
    interval: Type.Integer(),
  },
  { additionalProperties: false },
);
export const deviceCodeSchema = {
  response: { 200: DeviceCodeReply, ...errors(400, 401, 403, 413, 415, 429, 500) },
} satisfies RouteSchema;
