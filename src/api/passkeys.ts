import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { Static } from 'typebox';
import type { PasskeyView, listSchema } from '../contract/schemas/passkeys';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// Passkeys: the signed-in user's list and registration, and sign-in with one. The options and responses
// are WebAuthn's JSON forms, typed as @simplewebauthn/browser takes and gives them (the server's schemas
// check the same shapes); the list's types are the server's schemas. Types only (see endpoints.ts).

export type Passkey = PasskeyView;
export type PasskeyRegistrationOptions = PublicKeyCredentialCreationOptionsJSON;
export type PasskeyAuthenticationOptions = PublicKeyCredentialRequestOptionsJSON;
export type PasskeyRegistration = RegistrationResponseJSON;
export type PasskeyAssertion = AuthenticationResponseJSON;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);

/** GET /api/user/passkeys (bearer): the caller's passkeys, oldest first. */
export async function getPasskeys(ctx: ApiContext): Promise<Passkey[]> {
  const list = await request<Static<(typeof listSchema)['response'][200]>>(
    ctx,
    at(ctx, '/api/user/passkeys'),
  );
  return list.passkeys;
}

/** POST /api/user/passkeys/options (bearer): what `navigator.credentials.create()` takes. */
export function getRegistrationOptions(ctx: ApiContext): Promise<PasskeyRegistrationOptions> {
  return request(ctx, at(ctx, '/api/user/passkeys/options'), { method: 'POST' });
}

/** POST /api/user/passkeys (bearer): 400 `invalidName` / `passkeyRefused`, 409 `alreadyRegistered`. */
export function addPasskey(ctx: ApiContext, name: string, response: PasskeyRegistration): Promise<Passkey> {
  return request(ctx, at(ctx, '/api/user/passkeys'), { method: 'POST', json: { name, response } });
}

/** PATCH /api/user/passkeys/:id (bearer): 400 `invalidName`, 404 gone. */
export function renamePasskey(ctx: ApiContext, id: string, name: string): Promise<Passkey> {
  return request(ctx, at(ctx, `/api/user/passkeys/${encodeURIComponent(id)}`), {
    method: 'PATCH',
    json: { name },
  });
}

/** DELETE /api/user/passkeys/:id (bearer): 404 gone, 409 `onlySignIn` (the last way to sign in). */
export function removePasskey(ctx: ApiContext, id: string): Promise<void> {
  return request(ctx, at(ctx, `/api/user/passkeys/${encodeURIComponent(id)}`), { method: 'DELETE' });
}

/** POST /api/user/passkeys/reauth-options (bearer): a challenge to prove presence with one's passkey. */
export function getReauthOptions(ctx: ApiContext): Promise<PasskeyAuthenticationOptions> {
  return request(ctx, at(ctx, '/api/user/passkeys/reauth-options'), { method: 'POST' });
}

/**
 * POST /account/passkey/options: a sign-in challenge bound to this browser (a short-lived cookie).
 * With `team` (a first step): 403 `passkeysOff` when that team has turned passkey sign-in off.
 */
export function getSignInOptions(ctx: ApiContext, team?: string): Promise<PasskeyAuthenticationOptions> {
  const query = team === undefined ? '' : `?${new URLSearchParams({ team }).toString()}`;
  return request(ctx, at(ctx, `/account/passkey/options${query}`), { method: 'POST' });
}

/**
 * POST /account/passkey: signs in a member of `teamName` (a new session), or finishes this browser's
 * pending two-step sign-in — with `secondStep`, only as that user; 401 `passkeyRefused` for every
 * refusal alike.
 */
export function signInWithPasskey(
  ctx: ApiContext,
  response: PasskeyAssertion,
  { teamName, secondStep }: { teamName: string; secondStep?: boolean },
): Promise<{ authenticated: true }> {
  return request(ctx, at(ctx, '/account/passkey'), {
    method: 'POST',
    json: { response, teamName, ...(secondStep ? { secondStep } : {}) },
  });
}
