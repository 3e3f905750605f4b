import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits';
import { SIGN_UP_CODE_DIGITS } from '../sign-up';
import { ProofField } from './challenge';
import { errors, NoBody, type RouteSchema } from './common';
import { SignedIn } from './two-step';

const closed = { additionalProperties: false } as const;

/** The address as typed: the server lower-cases and judges it (`TeamAddressProblem`). */
const Address = Type.String({ minLength: 1, maxLength: LIMITS.teamName });
/** The team's name as people read it (trimmed and checked like every name: 1–50). */
const TeamName = Type.String({ maxLength: LIMITS.nameInput });
const SignUpId = Type.String({ minLength: 1, maxLength: 100 });
/** A secret of 256 bits, base64url. */
const Secret = Type.String({ minLength: 1, maxLength: 200 });

export const TeamAddressProblem = Type.Enum(['invalid', 'reserved', 'offensive', 'taken']);

/**
 * `GET /account/signup/team?address=…`: whether a new team may take the address (as typed, checked
 * while the person types). Says no more than the team step's public lookup does. 404 when the portal's
 * sign-up is off; 429.
 */
export const signUpTeamSchema = {
  querystring: Type.Object({ address: Type.String({ maxLength: LIMITS.teamName }) }, closed),
  response: {
    200: Type.Object(
      { address: Type.String(), available: Type.Boolean(), problem: Type.Optional(TeamAddressProblem) },
      closed,
    ),
    ...errors(400, 404, 429, 500),
  },
} satisfies RouteSchema;

/**
 * `POST /account/signup`: the team's name and address, the person's name and work address; one mail
 * with a six-digit code and a one-click link goes to the address. 202 with the sign-up's id, the same
 * for every address (one unfinished sign-up per address: asking again mails again, for the same id).
 * 400 at `address` (`invalid`, `reserved`, `offensive`, `taken`), `teamName` or `name` (`invalidName`),
 * `email` (`invalidEmail`); 403 without a good proof-of-work solution (its refusal's code); 404 when
 * sign-up is off; 429.
 */
export const SignUpStartBody = Type.Object(
  {
    teamName: TeamName,
    address: Address,
    name: Type.String({ maxLength: LIMITS.nameInput }),
    email: Type.String({ minLength: 1, maxLength: LIMITS.email }),
    /**
     * Where the new owner goes once the team is made (a path on the portal, by its ReturnUrl rule), e.g.
     * back to an app's sign-in: the mail's link carries it; anything else is left out.
     */
    returnUrl: Type.Optional(Type.String({ maxLength: 2000 })),
    /** A solved proof-of-work challenge (schemas/challenge.ts): required; 403 with its code otherwise. */
    proof: Type.Optional(ProofField),
  },
  closed,
);
export type SignUpStartBody = Static<typeof SignUpStartBody>;
export const SignUpStarted = Type.Object(
  {
    signUpId: Type.String(),
    /** How long the code works, in seconds. */
    expiresIn: Type.Integer(),
    /** Seconds before the screen offers another mail. */
    resendAfter: Type.Integer(),
  },
  closed,
);
export type SignUpStarted = Static<typeof SignUpStarted>;
export const signUpStartSchema = {
  body: SignUpStartBody,
  response: { 202: SignUpStarted, ...errors(400, 403, 404, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** The address is verified: the ticket that finishes the sign-up, and what it was for. */
export const SignUpVerified = Type.Object(
  {
    ticket: Type.String(),
    email: Type.String(),
    name: Type.String(),
    teamName: Type.String(),
    address: Type.String(),
  },
  closed,
);
export type SignUpVerified = Static<typeof SignUpVerified>;

/**
 * `POST /account/signup/verify`: the mailed code. 400 `wrongCode` at `code` (also expired or used),
 * counted by the lockout like a password; 429 `locked` once the address is locked; 404 when off.
 */
export const SignUpVerifyBody = Type.Object(
  { signUpId: SignUpId, code: Type.String({ minLength: 1, maxLength: SIGN_UP_CODE_DIGITS + 6 }) },
  closed,
);
export type SignUpVerifyBody = Static<typeof SignUpVerifyBody>;
export const signUpVerifySchema = {
  body: SignUpVerifyBody,
  response: { 200: SignUpVerified, ...errors(400, 403, 404, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** `POST /account/signup/link`: the mail's link, opened. 410 `signUpGone` when used, replaced or expired. */
export const SignUpLinkBody = Type.Object({ signUpId: SignUpId, token: Secret }, closed);
export type SignUpLinkBody = Static<typeof SignUpLinkBody>;
export const signUpLinkSchema = {
  body: SignUpLinkBody,
  response: { 200: SignUpVerified, ...errors(400, 403, 404, 410, 413, 415, 429, 500) },
} satisfies RouteSchema;

/**
 * `POST /account/signup/complete`: the team is made with the person as its owner, who is signed in —
 * with the new password, or (`passkey`) with none yet: the screen registers a passkey next, through the
 * account's own passkey calls. The team's name and address may be changed here (the address was taken
 * meanwhile). 400 at `password` (a policy code, or `breached`) or `confirmPassword`; 409 `taken` at
 * `address` (another sign-up won it); 410 `signUpGone` (finished already, or expired); 404 when off.
 */
const Completion = {
  ticket: Secret,
  teamName: TeamName,
  address: Address,
};
export const SignUpCompleteBody = Type.Union([
  Type.Object(
    {
      ...Completion,
      method: Type.Literal('password'),
      password: Type.String({ minLength: 1, maxLength: LIMITS.newPassword }),
      confirmPassword: Type.String({ maxLength: LIMITS.newPassword }),
    },
    closed,
  ),
  Type.Object({ ...Completion, method: Type.Literal('passkey') }, closed),
]);
export type SignUpCompleteBody = Static<typeof SignUpCompleteBody>;
export const signUpCompleteSchema = {
  body: SignUpCompleteBody,
  response: { 200: SignedIn, ...errors(400, 403, 404, 409, 410, 413, 415, 429, 500, 503) },
} satisfies RouteSchema;

/** `DELETE /api/team/checklist` (admin): the new team's first-steps checklist is put away for good. */
export const dismissChecklistSchema = {
  response: { 204: NoBody, ...errors(400, 401, 403, 413, 415, 500) },
} satisfies RouteSchema;
