import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits';
import { ProofField } from './challenge';
import { errors, type RouteSchema } from './common';
import { SignedIn, TwoStepNeeded } from './two-step';

const TeamName = Type.String({ minLength: 1, maxLength: LIMITS.teamName });
const Email = Type.String({ minLength: 1, maxLength: LIMITS.email });
/** As typed or pasted: spaces and dashes are dropped before the six digits are checked. */
const Code = Type.String({ minLength: 1, maxLength: 20 });
/** The link's token (256 bits, base64url). */
const Token = Type.String({ minLength: 1, maxLength: 200 });

/**
 * `POST /account/email-code`: mail a code and a link to the member. The same 200 whether or not the
 * address is a member's; 403 `notOffered` when the team does not offer it, or with the proof-of-work
 * refusal's code (`challengeRequired`…); 429 past the limits.
 */
export const EmailCodeRequestBody = Type.Object(
  {
    teamName: TeamName,
    email: Email,
    /** Where the link's sign-in should lead (a path on the portal, by its ReturnUrl rule). */
    returnUrl: Type.Optional(Type.String({ maxLength: 2000 })),
    /** A solved proof-of-work challenge (schemas/challenge.ts): required; 403 with its code otherwise. */
    proof: Type.Optional(ProofField),
  },
  { additionalProperties: false },
);
export type EmailCodeRequestBody = Static<typeof EmailCodeRequestBody>;
export const EmailCodeSent = Type.Object(
  {
    message: Type.String(),
    /** How long the code lives, in seconds. */
    expiresIn: Type.Integer(),
    /** Seconds before the screen offers another mail. */
    resendAfter: Type.Integer(),
  },
  { additionalProperties: false },
);
export type EmailCodeSent = Static<typeof EmailCodeSent>;
export const emailCodeRequestSchema = {
  body: EmailCodeRequestBody,
  response: { 200: EmailCodeSent, ...errors(400, 403, 413, 415, 429, 500) },
} satisfies RouteSchema;

/**
 * `POST /account/email-code/verify`: the code, with the address (any browser) or with the link's token
 * (the link opened in another browser than the one that asked). 401 `invalidCode` (field `code`), counted
 * by the lockout; 403 locked, `disabled`, `ssoRequired` or `notOffered`; 410 `codeGone` (a link's token
 * that was used, superseded or expired); 429.
 */
export const EmailCodeVerifyBody = Type.Union([
  Type.Object({ teamName: TeamName, email: Email, code: Code }, { additionalProperties: false }),
  Type.Object({ teamName: TeamName, token: Token, code: Code }, { additionalProperties: false }),
]);
export type EmailCodeVerifyBody = Static<typeof EmailCodeVerifyBody>;

/** Signed in, or the second step waits (as after a password). */
export const EmailCodeSignedIn = Type.Union([SignedIn, TwoStepNeeded]);
export type EmailCodeSignedIn = Static<typeof EmailCodeSignedIn>;

export const emailCodeVerifySchema = {
  body: EmailCodeVerifyBody,
  response: { 200: EmailCodeSignedIn, ...errors(400, 401, 403, 410, 413, 415, 429, 500) },
} satisfies RouteSchema;

/**
 * `POST /account/email-code/link`: the mail's link, opened. Signs in only in the browser that asked
 * (its cookie); elsewhere 409 `otherBrowser` and nothing is used up (the page asks for the code). 410
 * `codeGone` when the link was used, superseded or expired; 403 as for the code.
 */
export const EmailCodeLinkBody = Type.Object(
  { teamName: TeamName, token: Token },
  { additionalProperties: false },
);
export type EmailCodeLinkBody = Static<typeof EmailCodeLinkBody>;
export const emailCodeLinkSchema = {
  body: EmailCodeLinkBody,
  response: { 200: EmailCodeSignedIn, ...errors(400, 403, 409, 410, 413, 415, 429, 500) },
} satisfies RouteSchema;
