import { Type } from 'typebox';
import { errors, XsrfField, type RouteSchema } from './common';

/**
 * `POST /connect/token` (form): the portal's session exchange (`grant_type=device_code`, the portal's
 * `client_id`, `sessionId`: the handle `/account/check` gave for the caller's own cookie), or the
 * mobile app's RFC 8628 exchange of a QR device code (`device_code`), or a team API client's
 * `client_credentials` grant (`client_id` and `client_secret`, or HTTP Basic; `scope`).
 */
export const TokenBody = Type.Object(
  {
    grant_type: Type.String({ maxLength: 200 }),
    client_id: Type.Optional(Type.String({ maxLength: 200 })),
    sessionId: Type.Optional(Type.String({ maxLength: 200 })),
    device_code: Type.Optional(Type.String({ maxLength: 400 })),
    /** Client credentials (RFC 6749 §4.4): the secret in the form (or HTTP Basic), and the scopes asked for. */
    client_secret: Type.Optional(Type.String({ maxLength: 400 })),
    scope: Type.Optional(Type.String({ maxLength: 400 })),
    /**
     * The OpenID Provider's grants (authorization code with PKCE, refresh token), handed to it as they
     * came (lib/openid-provider.ts): it validates them.
     */
    code: Type.Optional(Type.String({ maxLength: 400 })),
    redirect_uri: Type.Optional(Type.String({ maxLength: 2000 })),
    code_verifier: Type.Optional(Type.String({ maxLength: 200 })),
    refresh_token: Type.Optional(Type.String({ maxLength: 400 })),
    resource: Type.Optional(Type.String({ maxLength: 2000 })),
    client_assertion: Type.Optional(Type.String({ maxLength: 8000 })),
    client_assertion_type: Type.Optional(Type.String({ maxLength: 200 })),
    __RequestVerificationToken: XsrfField,
  },
  { additionalProperties: false },
);
export const TokenReply = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    /** Seconds. */
    expires_in: Type.Integer(),
    /** Not for a team API client (client credentials): it is no person. */
    id_token: Type.Optional(Type.String()),
    /** The scopes granted to a team API client. */
    scope: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
/**
 * A refused grant, as OAuth 2.0 says (`invalid_grant`, `invalid_client`, `invalid_request`,
 * `expired_token`, `unsupported_grant_type`), with the description also as `message`. Input the schema
 * refuses is a 400 with `message` alone.
 */
export const OAuthErrorReply = Type.Object(
  {
    error: Type.Optional(Type.String()),
    error_description: Type.Optional(Type.String()),
    message: Type.String(),
  },
  { additionalProperties: false },
);
export const tokenSchema = {
  body: TokenBody,
  response: { 200: TokenReply, 400: OAuthErrorReply, 401: OAuthErrorReply, ...errors(403, 413, 415, 500) },
} satisfies RouteSchema;
