import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import type { Static } from 'typebox';
import type {
  RecoveryCodes,
  SecondStepBody,
  SecondStepMethod,
  TotpKey,
  TotpReplacement,
  TwoStepStatus,
} from '../contract/schemas/two-step';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// Two-step sign-in: the second step of a pending sign-in (its httpOnly cookie, no token), and the
// signed-in user's authenticator app and recovery codes. Types from the server's schemas (type-only).

export type { SecondStepMethod, TotpKey, TotpReplacement, TwoStepStatus };
/** A code from the app, or a recovery code. */
export type SecondStep = Static<typeof SecondStepBody>;
/** Proof of presence: the password, or an assertion for `getReauthOptions`. */
export type Reauthentication = { password: string } | { passkey: AuthenticationResponseJSON };

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);

/**
 * POST /account/two-step: the second step; signs in. 401 `invalidCode` (field `code`/`recoveryCode`) or
 * `twoStepExpired`, 403 locked, 409 `enrolRequired`, 429.
 */
export function finishSecondStep(ctx: ApiContext, body: SecondStep): Promise<{ authenticated: true }> {
  return request(ctx, at(ctx, '/account/two-step'), { method: 'POST', json: body });
}

/** POST /account/two-step/enrol: the key of the enrolment the team requires (pending sign-in). */
export function startRequiredEnrolment(ctx: ApiContext): Promise<TotpKey> {
  return request(ctx, at(ctx, '/account/two-step/enrol'), { method: 'POST' });
}

/** POST /account/two-step/enrol/confirm: the app's code; signs in and gives the first recovery codes. */
export function confirmRequiredEnrolment(
  ctx: ApiContext,
  code: string,
): Promise<{ authenticated: true; recoveryCodes: string[] }> {
  return request(ctx, at(ctx, '/account/two-step/enrol/confirm'), { method: 'POST', json: { code } });
}

/** GET /api/user/two-step (bearer). */
export function getTwoStep(ctx: ApiContext): Promise<TwoStepStatus> {
  return request(ctx, at(ctx, '/api/user/two-step'));
}

/** POST /api/user/two-step/totp (bearer): a new key to confirm (409 `alreadyOn`). */
export function startTotp(ctx: ApiContext): Promise<TotpKey> {
  return request(ctx, at(ctx, '/api/user/two-step/totp'), { method: 'POST' });
}

/** POST /api/user/two-step/totp/confirm (bearer): on, with the first recovery codes (400 `invalidCode`). */
export function confirmTotp(ctx: ApiContext, code: string): Promise<Static<typeof RecoveryCodes>> {
  return request(ctx, at(ctx, '/api/user/two-step/totp/confirm'), { method: 'POST', json: { code } });
}

/** DELETE /api/user/two-step/totp (bearer): off (400 `InvalidPassword`/`passkeyRefused`, 409 `requiredByTeam`). */
export function removeTotp(ctx: ApiContext, proof: Reauthentication): Promise<TwoStepStatus> {
  return request(ctx, at(ctx, '/api/user/two-step/totp'), { method: 'DELETE', json: proof });
}

/** POST /api/user/two-step/recovery-codes (bearer): new codes; the old ones stop working. */
export function renewRecoveryCodes(
  ctx: ApiContext,
  proof: Reauthentication,
): Promise<Static<typeof RecoveryCodes>> {
  return request(ctx, at(ctx, '/api/user/two-step/recovery-codes'), { method: 'POST', json: proof });
}

/** POST /api/user/two-step/totp/replace (bearer): a key for a new device; the one in force stays (409 `notOn`). */
export function startReplacement(ctx: ApiContext, proof: Reauthentication): Promise<TotpReplacement> {
  return request(ctx, at(ctx, '/api/user/two-step/totp/replace'), { method: 'POST', json: proof });
}

/**
 * POST /api/user/two-step/totp/replace/confirm (bearer): the new app's code puts its key in force (400
 * `invalidCode`, 409 `replacementGone`).
 */
export function confirmReplacement(
  ctx: ApiContext,
  body: { replacement: string; code: string },
): Promise<TwoStepStatus> {
  return request(ctx, at(ctx, '/api/user/two-step/totp/replace/confirm'), { method: 'POST', json: body });
}
