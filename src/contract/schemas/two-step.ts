import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits';
import { errors, type RouteSchema } from './common';
import { AuthenticationResponse } from './passkeys';

/**
 * Two-step sign-in: the second step after a password, the enrolment a team can require at sign-in, and
 * a signed-in user's authenticator app and recovery codes. The elements import the types only.
 */

/** What a second step can be done with. */
export const SecondStepMethod = Type.Enum(['totp', 'recovery', 'passkey']);
export type SecondStepMethod = Static<typeof SecondStepMethod>;

/**
 * `POST /account/login` when a second step is needed: no session yet, only the short-lived
 * `acct_two_step` cookie. `enrol`: the team requires two-step sign-in and the user has none: they must
 * set up an authenticator app first (`POST /account/two-step/enrol`).
 */
export const TwoStepNeeded = Type.Object(
  {
    twoStep: Type.Object(
      { methods: Type.Array(SecondStepMethod), enrol: Type.Boolean() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type TwoStepNeeded = Static<typeof TwoStepNeeded>;

/** A six-digit code from the authenticator app. */
const Code = Type.String({ minLength: 1, maxLength: 10 });
/** A recovery code as the user types it (dashes and spaces allowed). */
const RecoveryCode = Type.String({ minLength: 1, maxLength: 40 });

/** `POST /account/two-step`: exactly one of a code from the app or a recovery code. */
export const SecondStepBody = Type.Union([
  Type.Object({ code: Code }, { additionalProperties: false }),
  Type.Object({ recoveryCode: RecoveryCode }, { additionalProperties: false }),
]);
export const SignedIn = Type.Object({ authenticated: Type.Literal(true) }, { additionalProperties: false });
export const secondStepSchema = {
  body: SecondStepBody,
  // 401: no (or an expired) pending sign-in `twoStepExpired`, or a wrong code `invalidCode`; 403 locked;
  // 409 `enrolRequired`; 429 per address.
  response: { 200: SignedIn, ...errors(400, 401, 403, 409, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** A new authenticator-app key: the `otpauth://` URI (for the QR code) and the key as text. */
export const TotpKey = Type.Object(
  { uri: Type.String(), secret: Type.String() },
  { additionalProperties: false },
);
export type TotpKey = Static<typeof TotpKey>;

/** `POST /account/two-step/enrol` (the pending sign-in's forced enrolment). */
export const pendingEnrolSchema = {
  response: { 200: TotpKey, ...errors(400, 401, 403, 409, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** Recovery codes, shown once. */
export const RecoveryCodes = Type.Object(
  { recoveryCodes: Type.Array(Type.String()) },
  { additionalProperties: false },
);
export type RecoveryCodes = Static<typeof RecoveryCodes>;

export const CodeBody = Type.Object({ code: Code }, { additionalProperties: false });

/** `POST /account/two-step/enrol/confirm`: the enrolment is confirmed and the user signed in. */
export const PendingConfirmReply = Type.Object(
  { authenticated: Type.Literal(true), recoveryCodes: Type.Array(Type.String()) },
  { additionalProperties: false },
);
export const pendingConfirmSchema = {
  body: CodeBody,
  response: { 200: PendingConfirmReply, ...errors(400, 401, 403, 409, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** `GET /api/user/two-step`: the signed-in user's second steps. */
export const TwoStepStatus = Type.Object(
  {
    /** An authenticator app is set up and confirmed: two-step sign-in is on. */
    totp: Type.Boolean(),
    recoveryCodesLeft: Type.Integer(),
    passkeys: Type.Integer(),
    /** The team requires two-step sign-in (then it cannot be turned off). */
    required: Type.Boolean(),
    /** The user has a password, to prove presence with (else only a passkey can). */
    password: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type TwoStepStatus = Static<typeof TwoStepStatus>;
export const twoStepStatusSchema = {
  response: { 200: TwoStepStatus, ...errors(400, 401, 500) },
} satisfies RouteSchema;

/** `POST /api/user/two-step/totp`: a new key (409 `alreadyOn`). */
export const totpEnrolSchema = {
  response: { 200: TotpKey, ...errors(400, 401, 403, 409, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** `POST /api/user/two-step/totp/confirm`: on; the first recovery codes (400 `invalidCode`, 409 `nothingToConfirm`). */
export const totpConfirmSchema = {
  body: CodeBody,
  response: { 200: RecoveryCodes, ...errors(400, 401, 403, 409, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** Proof of presence before turning two-step sign-in off or making new recovery codes. */
export const ReauthBody = Type.Union([
  Type.Object(
    { password: Type.String({ minLength: 1, maxLength: LIMITS.password }) },
    { additionalProperties: false },
  ),
  // An assertion for the options of `POST /api/user/passkeys/reauth-options`.
  Type.Object({ passkey: AuthenticationResponse }, { additionalProperties: false }),
]);

/** `DELETE /api/user/two-step/totp` (400 `InvalidPassword`, `passkeyRefused`; 409 `notOn`, `requiredByTeam`). */
export const totpRemoveSchema = {
  body: ReauthBody,
  response: { 200: TwoStepStatus, ...errors(400, 401, 403, 409, 413, 415, 429, 500, 503) },
} satisfies RouteSchema;

/** `POST /api/user/two-step/recovery-codes`: new codes, the old ones stop working (409 `notOn`). */
export const recoveryRegenerateSchema = {
  body: ReauthBody,
  response: { 200: RecoveryCodes, ...errors(400, 401, 403, 409, 413, 415, 429, 500, 503) },
} satisfies RouteSchema;

/** `POST /api/user/two-step/totp/replace`: a new key for a new device, and the ticket that holds it. */
export const TotpReplacement = Type.Object(
  {
    uri: Type.String(),
    secret: Type.String(),
    /** Sent back with the new app's first code; ten minutes. */
    replacement: Type.String(),
  },
  { additionalProperties: false },
);
export type TotpReplacement = Static<typeof TotpReplacement>;
export const totpReplaceSchema = {
  body: ReauthBody,
  response: { 200: TotpReplacement, ...errors(400, 401, 403, 409, 413, 415, 429, 500, 503) },
} satisfies RouteSchema;

/**
 * `POST /api/user/two-step/totp/replace/confirm`: a code from the new app puts its key in force (400
 * `invalidCode`; 409 `replacementGone`: the ticket expired, or the key changed meanwhile).
 */
export const ReplaceConfirmBody = Type.Object(
  { replacement: Type.String({ minLength: 1, maxLength: 2000 }), code: Code },
  { additionalProperties: false },
);
export type ReplaceConfirmBody = Static<typeof ReplaceConfirmBody>;
export const totpReplaceConfirmSchema = {
  body: ReplaceConfirmBody,
  response: { 200: TwoStepStatus, ...errors(400, 401, 403, 409, 413, 415, 429, 500) },
} satisfies RouteSchema;
