import { Type } from 'typebox';
import { LIMITS } from '../limits';
import { errors, NoBody, type RouteSchema } from './common';
import { ProofField } from './challenge';
import { TwoStepNeeded } from './two-step';

/**
 * `POST /account/check` (no body; the session cookie, if any): whether the caller is signed in, and
 * the public handle of the session (the `sessionId` of the portal's token exchange) when so.
 */
export const CheckReply = Type.Object(
  { authenticated: Type.Boolean(), session: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export const checkSchema = {
  response: { 200: CheckReply, ...errors(400, 403, 413, 415, 500) },
} satisfies RouteSchema;

/** `POST /account/login`: password sign-in. */
export const LoginBody = Type.Object(
  {
    teamName: Type.String({ minLength: 1, maxLength: LIMITS.teamName }),
    email: Type.String({ minLength: 1, maxLength: LIMITS.email }),
    // Long enough for any real password; beyond it, no hashing of megabytes.
    password: Type.String({ minLength: 1, maxLength: LIMITS.password }),
    /** A solved proof-of-work challenge: asked for (403 `challengeRequired`) once the address shows failures. */
    proof: Type.Optional(ProofField),
  },
  { additionalProperties: false },
);
export const LoginReply = Type.Object({ authenticated: Type.Literal(true) }, { additionalProperties: false });
export const loginSchema = {
  body: LoginBody,
  // 401 every kind of bad credentials alike; 403 locked; 429 too many from the address; 503 hash queue full.
  response: {
    200: Type.Union([LoginReply, TwoStepNeeded]),
    ...errors(400, 401, 403, 413, 415, 429, 500, 503),
  },
} satisfies RouteSchema;

/**
 * `POST /account/logout` (form, anti-forgery): no body schema — a logout with any fields is still a
 * logout; only the body type and size rules apply. 303 to `/`, or 204 for a caller that asks for JSON.
 */
export const logoutSchema = {
  response: { 204: NoBody, 303: NoBody, ...errors(400, 403, 413, 415, 500) },
} satisfies RouteSchema;
