import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { PasskeysRepository } from '../db/passkeys';
import type { Passkey } from '../db/schema';
import type { AuthenticationOptions, RegistrationOptions } from '../../../src/contract/schemas/passkeys';
import type { BearerCaller } from './bearer';
import type { Clock } from './clock';
import { sha256 } from './crypto';
import { PENDING_MS } from './two-step';

type ChallengePurpose = 'register' | 'authenticate' | 'reauth';

/** Why a ceremony was refused: logged, never told the caller apart. */
export class PasskeyRefused extends Error {}

/**
 * A passkey no account holds (removed from its account, or never registered here): the person can be
 * told so — it names no account, so it reveals nothing about who is a member.
 */
export class PasskeyUnknown extends PasskeyRefused {}

/** The caller a registration is bound to: the user and their session (or token). */
export interface RegistrationCaller {
  id: string;
  email: string;
  name: string;
  /** The session (or token) the ceremony belongs to: its challenge works only there. */
  binding: string;
}

/** The caller of a registration (or re-authentication), bound to their token's session (or the token). */
export function registrantOf(caller: BearerCaller): RegistrationCaller {
  const { claims, user } = caller;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    binding: claims.sid ? `sid:${claims.sid}` : `jti:${String(claims.jti)}`,
  };
}

/** A passkey sign-in that passed: whose, and how (`amr`). */
export interface PasskeySignIn {
  userId: string;
  /** The user's team (normalised name): whether it lets members sign in with a passkey is the caller's. */
  teamName: string;
  amr: string[];
}

/**
 * WebAuthn through @simplewebauthn/server. The relying party id is the issuer's host; responses may come
 * from the issuer's origin or a CORS_ORIGINS origin (Related Origin Requests, `/.well-known/webauthn`).
 * Challenges are single use, five minutes, bound to a session or to a browser cookie (only hashes
 * stored); user verification is required, so a passkey sign-in counts as two factors.
 */
export class PasskeyService {
  readonly rpId: string;
  readonly origins: string[];

  constructor(
    private readonly repo: PasskeysRepository,
    private readonly clock: Clock,
    publicUrl: string,
    corsOrigins: readonly string[],
    private readonly rpName: string,
  ) {
    const url = new URL(publicUrl);
    this.rpId = url.hostname;
    this.origins = [url.origin, ...corsOrigins];
  }

  private async remember(
    challenge: string,
    purpose: ChallengePurpose,
    binding: string,
    userId: string | null,
  ) {
    const now = this.clock.now();
    await this.repo.dropChallengesBefore(now - PENDING_MS);
    await this.repo.insertChallenge({
      challenge_hash: sha256(challenge),
      purpose,
      binding_hash: sha256(binding),
      user_id: userId,
      created_at: now,
      expires_at: now + PENDING_MS,
      used_at: null,
    });
  }

  /** Use the challenge the client data names, once; the user it was made for. */
  private async useChallenge(clientDataJSON: string, purpose: ChallengePurpose, binding: string) {
    let challenge: string;
    try {
      challenge = decodeClientDataJSON(clientDataJSON).challenge;
    } catch {
      throw new PasskeyRefused('unreadable client data');
    }
    if (typeof challenge !== 'string' || challenge.length > 200) throw new PasskeyRefused('no challenge');
    const row = await this.repo.useChallenge(sha256(challenge), purpose, sha256(binding), this.clock.now());
    if (!row) throw new PasskeyRefused('unknown, used, expired or foreign challenge');
    return { challenge, userId: row.user_id };
  }

  /** What `navigator.credentials.create()` takes, its challenge remembered for this caller. */
  async registrationOptions(user: RegistrationCaller): Promise<RegistrationOptions> {
    const existing = await this.repo.credentialIdsOf(user.id);
    const options = await generateRegistrationOptions({
      rpName: this.rpName,
      rpID: this.rpId,
      userName: user.email,
      userDisplayName: user.name,
      // A stable handle that names no one: the same account on an authenticator is replaced, not doubled.
      userID: new TextEncoder().encode(user.id),
      timeout: PENDING_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((id) => ({ id })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.remember(options.challenge, 'register', user.binding, user.id);
    const selection = options.authenticatorSelection ?? {};
    return {
      challenge: options.challenge,
      rp: { name: this.rpName, id: this.rpId },
      user: options.user,
      pubKeyCredParams: options.pubKeyCredParams.map((p) => ({ alg: p.alg, type: 'public-key' as const })),
      timeout: PENDING_MS,
      attestation: 'none',
      excludeCredentials: (options.excludeCredentials ?? []).map((c) => ({
        id: c.id,
        type: 'public-key' as const,
        ...(c.transports ? { transports: c.transports } : {}),
      })),
      authenticatorSelection: {
        ...(selection.residentKey ? { residentKey: selection.residentKey } : {}),
        ...(selection.requireResidentKey !== undefined
          ? { requireResidentKey: selection.requireResidentKey }
          : {}),
        ...(selection.userVerification ? { userVerification: selection.userVerification } : {}),
      },
      extensions: { credProps: true },
      hints: [],
    };
  }

  /** Verify a new credential of the caller; the passkey to store (not stored yet). */
  async verifyRegistration(
    user: RegistrationCaller,
    response: RegistrationResponseJSON,
    name: string,
  ): Promise<Passkey> {
    const { challenge, userId } = await this.useChallenge(
      response.response.clientDataJSON,
      'register',
      user.binding,
    );
    if (userId !== user.id) throw new PasskeyRefused('challenge of another user');
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.origins,
        expectedRPID: this.rpId,
        requireUserVerification: true,
      });
    } catch (error) {
      throw new PasskeyRefused(error instanceof Error ? error.message : 'not verified');
    }
    if (!verified.verified) throw new PasskeyRefused('not verified');
    const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
    return {
      id: randomUUID(),
      credential_id: credential.id,
      user_id: user.id,
      public_key: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? response.response.transports ?? []),
      device_type: credentialDeviceType,
      backed_up: credentialBackedUp ? 1 : 0,
      name,
      created_at: this.clock.now(),
      last_used_at: null,
    };
  }

  /** Options for a sign-in with any passkey of the site, bound to the browser's cookie value. */
  authenticationOptions(browser: string): Promise<AuthenticationOptions> {
    return this.assertionOptions('authenticate', browser, null);
  }

  /**
   * Options for a signed-in user to prove presence again with one of their passkeys (before turning
   * two-step sign-in off), bound to their session like a registration.
   */
  reauthenticationOptions(user: RegistrationCaller): Promise<AuthenticationOptions> {
    return this.assertionOptions('reauth', user.binding, user.id);
  }

  private async assertionOptions(
    purpose: ChallengePurpose,
    binding: string,
    userId: string | null,
  ): Promise<AuthenticationOptions> {
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      timeout: PENDING_MS,
      userVerification: 'required',
    });
    await this.remember(options.challenge, purpose, binding, userId);
    return {
      rpId: this.rpId,
      challenge: options.challenge,
      timeout: PENDING_MS,
      userVerification: 'required',
    };
  }

  /**
   * Verify an assertion made for this browser's challenge: the credential is known, its owner may sign
   * in, the signature holds and the counter moved forward (a regression is refused: a cloned
   * authenticator). The counter and last use are then recorded.
   */
  async verifyAuthentication(
    browser: string,
    response: AuthenticationResponseJSON,
    teamName?: string,
  ): Promise<PasskeySignIn> {
    const { challenge } = await this.useChallenge(response.response.clientDataJSON, 'authenticate', browser);
    return this.verifyAssertion(challenge, response, null, teamName);
  }

  /** Verify a signed-in user's assertion for their re-authentication challenge, with one of their passkeys. */
  async verifyReauthentication(
    user: RegistrationCaller,
    response: AuthenticationResponseJSON,
  ): Promise<void> {
    const { challenge, userId } = await this.useChallenge(
      response.response.clientDataJSON,
      'reauth',
      user.binding,
    );
    if (userId !== user.id) throw new PasskeyRefused('challenge of another user');
    await this.verifyAssertion(challenge, response, user.id);
  }

  private async verifyAssertion(
    challenge: string,
    response: AuthenticationResponseJSON,
    owner: string | null,
    teamName?: string,
  ): Promise<PasskeySignIn> {
    const found = await this.repo.findByCredential(response.id);
    if (!found) throw new PasskeyUnknown('unknown credential');
    if (found.refused) throw new PasskeyRefused('member disabled or locked');
    // One host serves every team, so the browser offers any of its passkeys: on a team's sign-in page
    // only that team's members get in.
    if (teamName !== undefined && found.teamName !== teamName.trim().toLowerCase())
      throw new PasskeyRefused('passkey of another team');
    const { passkey } = found;
    if (owner !== null && passkey.user_id !== owner) throw new PasskeyRefused('another user’s passkey');
    if (response.response.userHandle !== undefined) {
      const handle = isoBase64URL.toUTF8String(response.response.userHandle);
      if (handle !== passkey.user_id) throw new PasskeyRefused('user handle of another user');
    }
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.origins,
        expectedRPID: this.rpId,
        credential: {
          id: passkey.credential_id,
          publicKey: isoBase64URL.toBuffer(passkey.public_key),
          counter: Number(passkey.counter),
          transports: JSON.parse(passkey.transports) as AuthenticatorTransport[],
        },
        requireUserVerification: true,
      });
    } catch (error) {
      throw new PasskeyRefused(error instanceof Error ? error.message : 'not verified');
    }
    if (!verified.verified) throw new PasskeyRefused('not verified');
    const { newCounter, credentialDeviceType } = verified.authenticationInfo;
    if (!(await this.repo.recordUse(passkey.id, Number(passkey.counter), newCounter, this.clock.now())))
      throw new PasskeyRefused('used in parallel');
    return {
      userId: passkey.user_id,
      teamName: found.teamName,
      amr: [credentialDeviceType === 'singleDevice' ? 'hwk' : 'swk', 'mfa'],
    };
  }
}
