import { Type } from 'typebox';
import { LIMITS } from '../limits';
import { ProofField } from './challenge';
import { errors, MessageReply, type RouteSchema } from './common';

/**
 * `POST /api/user/password/request`: mail a reset link. The same 200 whether or not the account
 * exists; 429 per address or account (`Retry-After`).
 */
export const ResetRequestBody = Type.Object(
  {
    teamName: Type.String({ minLength: 1, maxLength: LIMITS.teamName }),
    userName: Type.String({ minLength: 1, maxLength: LIMITS.email }),
    /** Where the sign-in after the reset should lead (a path on the portal, by its ReturnUrl rule). */
    returnUrl: Type.Optional(Type.String({ maxLength: 2000 })),
    /** A solved proof-of-work challenge (schemas/challenge.ts): required; 403 with its code otherwise. */
    proof: Type.Optional(ProofField),
  },
  { additionalProperties: false },
);
export const resetRequestSchema = {
  body: ResetRequestBody,
  response: { 200: MessageReply, ...errors(400, 403, 413, 415, 429, 500) },
} satisfies RouteSchema;

/**
 * `POST /api/user/password/reset`: set the password with the link's token. 400 `{message, code}` for a
 * password the policy refuses (in the caller's language); 401 team and user do not match; 410 token
 * expired, used or superseded; 429; 503.
 */
export const ResetBody = Type.Object(
  {
    teamName: Type.String({ minLength: 1, maxLength: LIMITS.teamName }),
    userId: Type.String({ minLength: 1, maxLength: 100 }),
    token: Type.String({ minLength: 1, maxLength: 200 }),
    // Policy checks (and their translated messages) come after the token check; this only bounds input.
    newPassword: Type.String({ minLength: 1, maxLength: LIMITS.newPassword }),
  },
  { additionalProperties: false },
);
export const resetSchema = {
  body: ResetBody,
  response: { 200: MessageReply, ...errors(400, 401, 403, 410, 413, 415, 429, 500, 503) },
} satisfies RouteSchema;

/** `GET /api/user/password` (bearer): the password options (spec §3). */
export const PasswordOptionsReply = Type.Object(
  {
    hasPassword: Type.Boolean(),
    /** ISO 8601, or null when the password was never set. */
    password_changed: Type.Union([Type.String(), Type.Null()]),
    externalAccounts: Type.Array(
      Type.Object({ providerName: Type.String(), userName: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export const passwordOptionsSchema = {
  response: { 200: PasswordOptionsReply, ...errors(400, 401, 500) },
} satisfies RouteSchema;

/**
 * `PUT /api/user/password` (bearer): set a first password (an account that signs in with a provider
 * only). 400 policy or `confirmMismatch`; 409 a password is already set.
 */
export const SetPasswordBody = Type.Object(
  {
    newPassword: Type.String({ minLength: 1, maxLength: LIMITS.newPassword }),
    confirmNewPassword: Type.String({ minLength: 1, maxLength: LIMITS.newPassword }),
  },
  { additionalProperties: false },
);
export const setPasswordSchema = {
  body: SetPasswordBody,
  response: { 200: MessageReply, ...errors(400, 401, 403, 409, 413, 415, 500, 503) },
} satisfies RouteSchema;

/**
 * `POST /api/user/password` (bearer): change the password. 400 `InvalidPassword` (the current one is
 * wrong), a policy `{message, code}` or `confirmMismatch`; 409 no password set, or changed meanwhile.
 */
export const ChangePasswordBody = Type.Object(
  {
    oldPassword: Type.String({ minLength: 1, maxLength: LIMITS.newPassword }),
    ...SetPasswordBody.properties,
    /** End the user's other sessions too (the default); false keeps them. */
    signOutOthers: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const changePasswordSchema = {
  body: ChangePasswordBody,
  response: { 200: MessageReply, ...errors(400, 401, 403, 409, 413, 415, 500, 503) },
} satisfies RouteSchema;

/**
 * The patterns that make a password easy to guess, as zxcvbn names them (the meter words each in the
 * `strength` texts). zxcvbn's own online check, `pwned`, is not used: the breach check is the server's.
 */
export const STRENGTH_WARNINGS = [
  'straightRow',
  'keyPattern',
  'simpleRepeat',
  'extendedRepeat',
  'sequences',
  'recentYears',
  'dates',
  'topTen',
  'topHundred',
  'common',
  'similarToCommon',
  'wordByItself',
  'namesByThemselves',
  'commonNames',
  'userInputs',
] as const;
export type StrengthWarning = (typeof STRENGTH_WARNINGS)[number];

/**
 * `POST /api/password/strength`: how hard a new password is to guess, for the meter under a new-password
 * field. Public (a person choosing a password at sign-up has no session yet); nothing is kept or logged.
 * The dictionaries are the request language's and English, besides the common lists.
 */
export const StrengthBody = Type.Object(
  {
    password: Type.String({ minLength: 1, maxLength: LIMITS.newPassword }),
    /** What counts as easy to guess for this person: their address, name, team. */
    userInputs: Type.Optional(Type.Array(Type.String({ maxLength: LIMITS.email }), { maxItems: 5 })),
  },
  { additionalProperties: false },
);
export const StrengthReply = Type.Object(
  {
    /** 0 (too easy to guess) … 4 (very hard to guess). */
    score: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2), Type.Literal(3), Type.Literal(4)]),
    /** The pattern that makes it easy to guess, if one does. */
    warning: Type.Union([Type.Enum([...STRENGTH_WARNINGS]), Type.Null()]),
  },
  { additionalProperties: false },
);
/** 429 when an address asks too often (`Retry-After`); 503 when the estimates are busy (the meter stays quiet). */
export const strengthSchema = {
  body: StrengthBody,
  response: { 200: StrengthReply, ...errors(400, 403, 413, 415, 429, 500, 503) },
} satisfies RouteSchema;
