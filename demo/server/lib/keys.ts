import { readFile } from 'node:fs/promises';
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
import type { Config } from '../config';
import type { ChangeFeed } from '../db/changes';
import type { Db } from '../db/connect';
import { signingKeysRepository, type SigningKeysRepository } from '../db/signing-keys';
import type { PublicJwk } from '../../../src/contract/schemas/discovery';
import type { Clock } from './clock';
import { randomToken } from './crypto';
import { Sealer } from './sealing';

const ALG = 'EdDSA';
/** Access and id tokens live one hour (design §4). */
export const TOKEN_TTL_SECONDS = 3600;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A new key is published this long before it signs: relying parties cache the JWKS for up to 5 minutes
 * (its Cache-Control), and every node reloads the keys at least once a minute.
 */
export const PUBLISH_AHEAD_MS = 10 * 60 * 1000;
/** How often a node reloads the keys (and rotates them when due), besides when told of a new one. */
export const RELOAD_MS = 60 * 1000;
/**
 * A retired key stays published and accepted this long: the tokens it signed live TOKEN_TTL_SECONDS,
 * and a node that has not yet heard of its successor may sign with it until its next reload.
 */
export const RETIRED_KEPT_MS = TOKEN_TTL_SECONDS * 1000 + 2 * RELOAD_MS + PUBLISH_AHEAD_MS;
/** An unknown `kid` reloads the keys at most this often (an attacker's made-up kids cost one read a second). */
const UNKNOWN_KID_RELOAD_MS = 1000;
const XSRF_SECRET = 'xsrf-hmac';

export interface SigningKey {
  kid: string;
  generation: number;
  notBefore: number;
  privateKey: CryptoKey | KeyObject | Uint8Array;
  publicKey: CryptoKey | KeyObject | Uint8Array;
  /** The public half, as `/.well-known/jwks` publishes it. */
  publicJwk: Static<typeof PublicJwk>;
  /** The private key as a JWK, for the OpenID Provider's key set (lib/openid-provider.ts). */
  privateJwk: JWK;
}

export interface KeyRingOptions {
  repo: SigningKeysRepository;
  sealer: Sealer;
  clock: Clock;
  /** Rotate when the signing key is this many days old; 0: only by command. */
  rotationDays: number;
  /** A key file of the single-machine days (SIGNING_KEY_FILE): imported once into an empty database. */
  importFile?: string;
}

interface KeyFile {
  signingKey: JWK;
  hmacSecret: string;
}

/** The public members of an Ed25519 JWK, whatever else it holds. */
function publicPart(jwk: JWK): { kty: string; crv: string; x: string } {
  const { kty, crv, x } = jwk;
  if (kty !== 'OKP' || !crv || !x)
    throw new Error('the signing key is not an Ed25519 key (kty, crv and x expected)');
  return { kty, crv, x };
}

async function readKeyFile(path: string | undefined): Promise<KeyFile | null> {
  if (!path) return null;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<KeyFile>;
  if (!parsed.signingKey?.d || typeof parsed.hmacSecret !== 'string')
    throw new Error(
      `${path} is not a valid key file (signingKey with a private part and hmacSecret expected)`,
    );
  return parsed as KeyFile;
}

/**
 * The token signing keys and the anti-forgery secret, as every node shares them through the database
 * (docs/decisions/keys-in-database.md). Keys are ordered by generation; the newest one whose
 * `not_before` has come signs; a key is retired when its successor starts signing, and stays published
 * and accepted for RETIRED_KEPT_MS after that, so no token it signed stops working before it expires.
 */
export class KeyRing {
  private keys: SigningKey[] = [];
  private lastReload = 0;
  private reloading: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  private constructor(
    private readonly options: KeyRingOptions,
    /** The anti-forgery tokens' HMAC secret (and the provider start tickets'). */
    readonly hmacSecret: Buffer,
  ) {}

  /** Seals what the database keeps secret (KEY_ENCRYPTION_KEY): private keys, shared secrets, TOTP keys. */
  get sealer(): Sealer {
    return this.options.sealer;
  }

  /** Loads the keys, creating the first one (or importing the key file) in an empty database. */
  static async open(options: KeyRingOptions): Promise<KeyRing> {
    const { repo, sealer, clock } = options;
    const file = await readKeyFile(options.importFile);
    const secret = await repo.secret(
      XSRF_SECRET,
      () => sealer.seal(file?.hmacSecret ?? randomToken(32), `server_secrets:${XSRF_SECRET}`),
      clock.now(),
    );
    const ring = new KeyRing(
      options,
      Buffer.from(sealer.open(secret, `server_secrets:${XSRF_SECRET}`), 'base64url'),
    );
    if ((await repo.all()).length === 0) await ring.add(1, clock.now(), file?.signingKey);
    await ring.reload();
    return ring;
  }

  /**
   * Reloads every RELOAD_MS (rotating when due), and whenever the change feed tells of a new key (on
   * PostgreSQL, at once on every node), until `stop()`.
   */
  start(changes: ChangeFeed | null): void {
    this.timer ??= setInterval(() => void this.reload().catch(() => undefined), RELOAD_MS).unref();
    this.unsubscribe ??=
      changes?.on('signing_keys', () => void this.reload(false).catch(() => undefined)) ?? null;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** The key that signs now: the newest whose time has come (or the first, if none has yet). */
  signingKey(): SigningKey {
    const now = this.options.clock.now();
    const key = this.keys.findLast((k) => k.notBefore <= now) ?? this.keys[0];
    if (!key) throw new Error('no signing key loaded');
    return key;
  }

  /** The keys a token may be signed with now: the signing key, the next ones, the recently retired. */
  private live(): SigningKey[] {
    const now = this.options.clock.now();
    return this.keys.filter((key, index) => {
      const successor = this.keys[index + 1];
      const retiredAt = successor && successor.notBefore <= now ? successor.notBefore : null;
      return retiredAt === null || now - retiredAt < RETIRED_KEPT_MS;
    });
  }

  /** Every live key, the signing key first. */
  private ordered(): SigningKey[] {
    const signing = this.signingKey();
    return [signing, ...this.live().filter((key) => key !== signing)];
  }

  /** What `/.well-known/jwks` publishes: every live key, the signing key first. */
  published(): Array<Static<typeof PublicJwk>> {
    return this.ordered().map((key) => key.publicJwk);
  }

  /**
   * The private keys of `published()`, in its order (the signing key first): the OpenID Provider's key
   * set, which signs with the first key of its algorithm.
   */
  privateJwks(): JWK[] {
    return this.ordered().map((key) => key.privateJwk);
  }

  /** The key a token names, if it is live; an unknown kid reloads the keys first (at most once a second). */
  async verificationKey(kid: string | undefined): Promise<SigningKey | undefined> {
    if (!kid) return undefined;
    const find = () => this.live().find((key) => key.kid === kid);
    const found = find();
    if (found || this.keys.some((key) => key.kid === kid)) return found;
    if (Date.now() - this.lastReload < UNKNOWN_KID_RELOAD_MS) return undefined;
    await this.reload();
    return find();
  }

  /**
   * Adds the next generation, signing from `notBefore` on (default: PUBLISH_AHEAD_MS from now). Another
   * node adding the same generation first wins; either way the keys are reloaded. The new key's kid.
   */
  async rotate(notBefore = this.options.clock.now() + PUBLISH_AHEAD_MS): Promise<string> {
    await this.reload(false);
    const generation = (this.keys.at(-1)?.generation ?? 0) + 1;
    await this.add(generation, notBefore);
    await this.reload(false);
    return this.keys.at(-1)!.kid;
  }

  /**
   * Reads the keys again (rotating first when due and `rotateWhenDue`). Reads run one after another: a
   * reload asked for while one runs reads again after it, so a key added meanwhile is not missed.
   */
  reload(rotateWhenDue = true): Promise<void> {
    const next = (this.reloading ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.read(rotateWhenDue));
    this.reloading = next;
    return next;
  }

  private async read(rotateWhenDue: boolean): Promise<void> {
    const { repo, sealer } = this.options;
    this.lastReload = Date.now();
    const rows = await repo.all();
    const keys: SigningKey[] = [];
    for (const row of rows) {
      const known = this.keys.find((key) => key.kid === row.kid);
      if (known) {
        keys.push(known);
        continue;
      }
      const publicJwk = publicPart(JSON.parse(row.public_jwk) as JWK);
      const privateJwk = JSON.parse(sealer.open(row.private_jwk, `signing_keys:${row.kid}`)) as JWK;
      keys.push({
        kid: row.kid,
        generation: row.generation,
        notBefore: Number(row.not_before),
        privateKey: await importJWK(privateJwk, ALG),
        publicKey: await importJWK(publicJwk, ALG),
        publicJwk: { ...publicJwk, kid: row.kid, alg: ALG, use: 'sig' },
        privateJwk: { ...privateJwk, kid: row.kid, alg: ALG, use: 'sig' },
      });
    }
    this.keys = keys;
    const { rotationDays, clock } = this.options;
    const newest = keys.at(-1);
    if (
      rotateWhenDue &&
      rotationDays > 0 &&
      newest &&
      clock.now() - newest.notBefore >= rotationDays * DAY_MS
    ) {
      const generation = newest.generation + 1;
      await this.add(generation, clock.now() + PUBLISH_AHEAD_MS);
      await this.read(false);
    }
  }

  private async add(generation: number, notBefore: number, jwk?: JWK): Promise<void> {
    const { repo, sealer, clock } = this.options;
    const privateJwk =
      jwk ??
      (await exportJWK((await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true })).privateKey));
    const publicJwk = publicPart(privateJwk);
    const kid = await calculateJwkThumbprint(publicJwk);
    const { kty, crv, x, d } = privateJwk;
    await repo.add({
      kid,
      generation,
      public_jwk: JSON.stringify(publicJwk),
      private_jwk: sealer.seal(JSON.stringify({ kty, crv, x, d }), `signing_keys:${kid}`),
      created_at: clock.now(),
      not_before: notBefore,
    });
  }
}

/** The node's key ring, as the configuration says: sealed with KEY_ENCRYPTION_KEY, rotating when due. */
export function openKeyRing(db: Db, config: Config, clock: Clock): Promise<KeyRing> {
  return KeyRing.open({
    repo: signingKeysRepository(db.kysely),
    sealer: new Sealer(config.keyEncryptionKey),
    clock,
    rotationDays: config.keyRotationDays,
    importFile: config.signingKeyFile,
  });
}

export { ALG as SIGNING_ALG };
