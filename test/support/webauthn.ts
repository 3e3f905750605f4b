import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software authenticator for the server tests: one ES256 (P-256) key per credential, made with
 * node:crypto, answering registration ('none' attestation) and sign-in ceremonies with the bytes a
 * browser would pass on — authenticator data, a CBOR attestation object (the CBOR encoder
 * @simplewebauthn/server itself uses) and the client data JSON — in the JSON form of
 * `PublicKeyCredential.toJSON()`. Test-only: it signs whatever it is asked to.
 */

const b64 = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha = (bytes: Uint8Array | Buffer | string) => createHash('sha256').update(bytes).digest();

/** Authenticator data flags (WebAuthn §6.1). */
const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

interface CreationOptions {
  challenge: string;
  rp: { id: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId: string;
}

export interface AuthenticatorOptions {
  /** Set the user-verified flag (default true). */
  userVerified?: boolean;
  /** A synced (multi-device) passkey: backup eligible and backed up. */
  synced?: boolean;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter; tests may set it back to play a cloned authenticator. */
  counter = 0;
  userHandle: string | null = null;

  constructor(private readonly options: AuthenticatorOptions = {}) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private flags(extra = 0): number {
    let flags = UP | extra;
    if (this.options.userVerified ?? true) flags |= UV;
    if (this.options.synced) flags |= BE | BS;
    return flags;
  }

  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const key = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    return isoCBOR.encode(key);
  }

  private authData(rpId: string, flags: number, attested?: Uint8Array): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** Answer `navigator.credentials.create()` with these options, as seen from `origin`. */
  create(options: CreationOptions, origin: string, overrides: { challenge?: string; rpId?: string } = {}) {
    this.userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const authData = this.authData(overrides.rpId ?? options.rp.id, this.flags(AT), attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = this.clientData(
      'webauthn.create',
      overrides.challenge ?? options.challenge,
      origin,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: { credProps: { rk: true } },
    };
  }

  /** Answer `navigator.credentials.get()` with these options: the counter moves on by one first. */
  get(options: RequestOptions, origin: string, overrides: { challenge?: string } = {}) {
    this.counter += 1;
    const authData = this.authData(options.rpId, this.flags());
    const clientDataJSON = this.clientData('webauthn.get', overrides.challenge ?? options.challenge, origin);
    const signature = sign('sha256', Buffer.concat([authData, sha(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}
