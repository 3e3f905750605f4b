import { SignJWT, decodeProtectedHeader, jwtVerify, type JWSHeaderParameters, type JWTPayload } from 'jose';
import type { Clock } from './clock';
import { randomToken } from './crypto';
import { SIGNING_ALG, TOKEN_TTL_SECONDS, type KeyRing, type SigningKey } from './keys';

export { TOKEN_TTL_SECONDS };
export const ACCESS_TOKEN_TYPE = 'at+jwt';
/**
 * A setup link's token (docs/decisions/setup-links.md): its own type and audience, so no access token
 * passes for it and it passes for no access token.
 */
export const SETUP_TOKEN_TYPE = 'setup+jwt';
/** Shorter than an access token's hour: the IT contact's page opens the link again for a new one. */
export const SETUP_TOKEN_TTL_SECONDS = 1800;

/** What a valid setup token says: the link and its team. */
export interface SetupClaims {
  linkId: string;
  teamId: string;
}

export interface TokenSubject {
  userId: string;
  teamId: string;
  teamName: string;
  name: string;
  email: string;
}

/** How and when the user signed in (OpenID Connect `amr`, RFC 8176 values, and `auth_time`). */
export interface SignInFacts {
  amr: readonly string[];
  /** Milliseconds since the epoch. */
  authTime: number;
}

const signInClaims = (facts?: SignInFacts) =>
  facts ? { amr: [...facts.amr], auth_time: Math.floor(facts.authTime / 1000) } : {};

export interface AccessClaims extends JWTPayload {
  sub: string;
  team_id: string;
  client_id: string;
  scope: string;
  /** The public handle of the browser session the token was exchanged from, if any. */
  sid?: string;
}

/** What a compact JWS can look like: three base64url parts (checked before any parsing). */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_TOKEN_LENGTH = 4096;

/** How many verified access tokens are remembered (about 1 KB each). */
const VERIFIED_CACHE_SIZE = 10_000;
/**
 * Remembered tokens are found by the last characters of their signature, then compared whole: a Map
 * lookup hashes its key, and hashing the whole token (600 characters, a new string on each request)
 * would cost more than the rest of a remembered token's check. 22 characters of
 * a signature are 130 random bits; a token that merely ends the same is compared, found different and
 * verified like any unknown one.
 */
const VERIFIED_KEY_LENGTH = 22;

/**
 * Whether a token says it is a setup token (its header's `typ`, not yet verified): which of the two
 * checks a route that takes either runs, so neither kind is verified twice.
 */
export function claimsSetupType(token: string): boolean {
  if (token.length > MAX_TOKEN_LENGTH || !TOKEN_FORMAT.test(token)) return false;
  try {
    return decodeProtectedHeader(token).typ === SETUP_TOKEN_TYPE;
  } catch {
    return false;
  }
}

export class TokenService {
  /**
   * Access tokens whose signature and fixed claims were verified, with their exact text, by the end of
   * their signature (VERIFIED_KEY_LENGTH). A client uses one token for up to an hour, and the signature
   * check (EdDSA through WebCrypto) is the costly part of a bearer call; a remembered token only has its lifetime checked again. Whether the token's session or password still holds is
   * checked by the caller on every request (`lib/bearer.ts`).
   */
  private readonly verified = new Map<
    string,
    { token: string; claims: Readonly<AccessClaims>; exp: number; nbf: number | undefined }
  >();

  /** The audience of setup tokens: the issuer's setup calls, never the API's audience. */
  private readonly setupAudience: string;

  constructor(
    private readonly keys: KeyRing,
    private readonly issuer: string,
    private readonly audience: string,
    private readonly clock: Clock,
  ) {
    this.setupAudience = `${issuer}/account/setup`;
  }

  /** The key is taken once per token: the `kid` in its header is the key that signs it. */
  private base(key: SigningKey, payload: JWTPayload, typ: string) {
    const now = Math.floor(this.clock.now() / 1000);
    return new SignJWT(payload)
      .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ })
      .setIssuer(this.issuer)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + TOKEN_TTL_SECONDS)
      .setJti(randomToken(16));
  }

  /**
   * An access token for the API: `typ: at+jwt`, audience the API, the user's team and the scopes, and
   * (for the portal's own tokens) the session it came from, so "sign out my other sessions" knows which
   * one to keep.
   */
  accessToken(
    subject: TokenSubject,
    clientId: string,
    scopes: readonly string[],
    sessionId?: string,
    signIn?: SignInFacts,
  ): Promise<string> {
    const claims = {
      team_id: subject.teamId,
      client_id: clientId,
      scope: scopes.join(' '),
      ...signInClaims(signIn),
    };
    const key = this.keys.signingKey();
    return this.base(key, sessionId ? { ...claims, sid: sessionId } : claims, ACCESS_TOKEN_TYPE)
      .setSubject(subject.userId)
      .setAudience(this.audience)
      .sign(key.privateKey);
  }

  /**
   * An id token for the client: `typ: JWT`, audience the client id, with the user's groups' names and,
   * when known, how and when they signed in (`amr`, `auth_time`).
   */
  idToken(
    subject: TokenSubject,
    clientId: string,
    groups: readonly string[],
    signIn?: SignInFacts,
  ): Promise<string> {
    const key = this.keys.signingKey();
    return this.base(
      key,
      {
        name: subject.name,
        email: subject.email,
        team: subject.teamName,
        team_id: subject.teamId,
        groups: [...groups],
        ...signInClaims(signIn),
      },
      'JWT',
    )
      .setSubject(subject.userId)
      .setAudience(clientId)
      .sign(key.privateKey);
  }

  /**
   * An access token for a team API client (client credentials, RFC 6749 §4.4): its subject is the
   * client, with the team it belongs to and the scopes granted; no user, no session.
   */
  clientAccessToken(clientId: string, teamId: string, scopes: readonly string[]): Promise<string> {
    const key = this.keys.signingKey();
    return this.base(
      key,
      { team_id: teamId, client_id: clientId, scope: scopes.join(' ') },
      ACCESS_TOKEN_TYPE,
    )
      .setSubject(clientId)
      .setAudience(this.audience)
      .sign(key.privateKey);
  }

  /** A token for a setup link's calls (its subject the link, with its team), SETUP_TOKEN_TTL_SECONDS. */
  setupToken(linkId: string, teamId: string): Promise<string> {
    const key = this.keys.signingKey();
    const now = Math.floor(this.clock.now() / 1000);
    return this.base(key, { team_id: teamId }, SETUP_TOKEN_TYPE)
      .setExpirationTime(now + SETUP_TOKEN_TTL_SECONDS)
      .setSubject(linkId)
      .setAudience(this.setupAudience)
      .sign(key.privateKey);
  }

  /**
   * Verify a setup token: signature, `alg`, `typ: setup+jwt`, issuer, the setup audience and lifetime.
   * Whether its link still works is the caller's to check, on every call (plugins/auth.ts).
   */
  async verifySetupToken(token: string): Promise<SetupClaims | null> {
    if (token.length > MAX_TOKEN_LENGTH || !TOKEN_FORMAT.test(token)) return null;
    try {
      const { payload } = await jwtVerify(token, this.verificationKey, {
        algorithms: [SIGNING_ALG],
        typ: SETUP_TOKEN_TYPE,
        issuer: this.issuer,
        audience: this.setupAudience,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.team_id !== 'string') return null;
      return { linkId: payload.sub, teamId: payload.team_id };
    } catch {
      return null;
    }
  }

  /**
   * Verify an access token: signature, `alg`, `typ: at+jwt`, issuer, audience and lifetime. Id tokens and
   * anything else are refused (null). A remembered token is only looked up: its text was checked when
   * it was first verified.
   */
  async verifyAccessToken(token: string): Promise<AccessClaims | null> {
    const key = token.slice(-VERIFIED_KEY_LENGTH);
    const known = this.verified.get(key);
    if (known && known.token === token) {
      // The signature, alg, typ, issuer and audience of this exact string were checked; time was not.
      const now = Math.floor(this.clock.now() / 1000);
      if (known.exp > now && (known.nbf === undefined || known.nbf <= now)) return known.claims;
      this.verified.delete(key);
      return null;
    }
    if (token.length > MAX_TOKEN_LENGTH || !TOKEN_FORMAT.test(token)) return null;
    const claims = await this.verifySignedAccessToken(token);
    if (claims && typeof claims.exp === 'number') {
      if (this.verified.size >= VERIFIED_CACHE_SIZE) {
        // Maps iterate in insertion order: drop the oldest entry.
        this.verified.delete(this.verified.keys().next().value as string);
      }
      const nbf = typeof claims.nbf === 'number' ? claims.nbf : undefined;
      this.verified.set(key, { token, claims: Object.freeze(claims), exp: claims.exp, nbf });
    }
    return claims;
  }

  /** The live key the token's header names (jose calls it with the header once the format holds). */
  private readonly verificationKey = async (header: JWSHeaderParameters) => {
    const key = await this.keys.verificationKey(header.kid);
    if (!key) throw new Error('unknown or retired kid');
    return key.publicKey;
  };

  private async verifySignedAccessToken(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.verificationKey, {
        algorithms: [SIGNING_ALG],
        typ: ACCESS_TOKEN_TYPE,
        issuer: this.issuer,
        audience: this.audience,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.team_id !== 'string') return null;
      return {
        ...payload,
        sub: payload.sub,
        team_id: payload.team_id,
        client_id: typeof payload.client_id === 'string' ? payload.client_id : '',
        scope: typeof payload.scope === 'string' ? payload.scope : '',
        ...(typeof payload.sid === 'string' ? { sid: payload.sid } : {}),
      };
    } catch {
      return null;
    }
  }
}
