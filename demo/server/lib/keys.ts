import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
  type KeyObject,
} from 'jose';
import type { Static } from 'typebox';
import type { PublicJwk } from '../schemas/discovery';
import { randomToken } from './crypto';

/** The server's secrets: the token signing key pair and the HMAC secret of the anti-forgery tokens. */
export interface ServerKeys {
  kid: string;
  privateKey: CryptoKey | KeyObject | Uint8Array;
  publicKey: CryptoKey | KeyObject | Uint8Array;
  /** The public half of the signing key, as `/.well-known/jwks` publishes it. */
  publicJwk: Static<typeof PublicJwk>;
  hmacSecret: Buffer;
}

interface KeyFile {
  signingKey: JWK;
  hmacSecret: string;
}

const ALG = 'EdDSA';

async function fromFile(file: KeyFile): Promise<ServerKeys> {
  const { d: _private, ...publicJwk } = file.signingKey;
  const { kty, crv, x } = publicJwk;
  if (!kty || !crv || !x) throw new Error('the signing key is not an Ed25519 key (kty, crv and x expected)');
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    privateKey: await importJWK(file.signingKey, ALG),
    publicKey: await importJWK(publicJwk, ALG),
    publicJwk: { ...publicJwk, kty, crv, x, kid, alg: ALG, use: 'sig' },
    hmacSecret: Buffer.from(file.hmacSecret, 'base64url'),
  };
}

/**
 * Load the key file, or create it on first start (mode 0600). Every node of a deployment must share it,
 * which is why it is one file named by SIGNING_KEY_FILE.
 */
export async function loadOrCreateKeys(path: string): Promise<ServerKeys> {
  let text: string | null = null;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== null) {
    const parsed = JSON.parse(text) as Partial<KeyFile>;
    if (!parsed.signingKey?.d || typeof parsed.hmacSecret !== 'string') {
      throw new Error(
        `${path} is not a valid key file (signingKey with a private part and hmacSecret expected)`,
      );
    }
    return fromFile(parsed as KeyFile);
  }
  const { privateKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
  const file: KeyFile = { signingKey: await exportJWK(privateKey), hmacSecret: randomToken(32) };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(file, null, 2), { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  await chmod(path, 0o600);
  return loadOrCreateKeys(path);
}

export { ALG as SIGNING_ALG };
