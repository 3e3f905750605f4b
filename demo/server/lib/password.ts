import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing: scrypt with N=2^17, r=8, p=1 (design §4). The parameters are stored with each hash
 * (`$scrypt$ln=17,r=8,p=1$salt$hash`) so they can be raised later and old hashes upgraded on login.
 * Hashing is CPU- and memory-heavy, so at most `concurrency` run at once and at most `queue` wait;
 * beyond that callers get {@link HashBusyError} (the server answers 503) instead of a stalled server.
 */
export const SCRYPT_PARAMS = { ln: 17, r: 8, p: 1 } as const;
/** The range of `ln` (log2 of scrypt's N) a stored hash may have; HASH_COST is held to it too. */
export const SCRYPT_LN_MIN = 10;
export const SCRYPT_LN_MAX = 22;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

export class HashBusyError extends Error {
  constructor() {
    super('too many password checks at once');
    this.name = 'HashBusyError';
  }
}

export interface ScryptParams {
  ln: number;
  r: number;
  p: number;
}

/** The production parameters with another cost (`ln`): what HASH_COST selects. */
export function scryptParams(ln: number = SCRYPT_PARAMS.ln): ScryptParams {
  return { ...SCRYPT_PARAMS, ln };
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.ln;
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 };
  return new Promise((resolvePromise, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolvePromise(key),
    );
  });
}

function parse(encoded: string): { params: ScryptParams; salt: Buffer; hash: Buffer } | null {
  const match = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(encoded);
  if (!match) return null;
  const [, ln, r, p, salt, hash] = match;
  const params = { ln: Number(ln), r: Number(r), p: Number(p) };
  if (
    params.ln < SCRYPT_LN_MIN ||
    params.ln > SCRYPT_LN_MAX ||
    params.r < 1 ||
    params.r > 32 ||
    params.p < 1 ||
    params.p > 16
  )
    return null;
  return { params, salt: Buffer.from(salt!, 'base64url'), hash: Buffer.from(hash!, 'base64url') };
}

export class PasswordHasher {
  private running = 0;
  /** Key derivations done so far (every verify and hash does exactly one). */
  derivations = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
    private readonly params: ScryptParams = SCRYPT_PARAMS,
  ) {}

  /** Hashes running or waiting right now (for the benchmark and health figures). */
  get load(): number {
    return this.running + this.waiting.length;
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) throw new HashBusyError();
      await new Promise<void>((resolvePromise) => this.waiting.push(resolvePromise));
    } else {
      this.running++;
    }
    try {
      this.derivations++;
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await this.slot(() => derive(password, salt, this.params));
    const { ln, r, p } = this.params;
    return `$scrypt$ln=${ln},r=${r},p=${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
  }

  /** Whether `password` matches `encoded`. A malformed hash never matches (but costs the same time). */
  async verify(password: string, encoded: string | null): Promise<boolean> {
    const parsed = encoded ? parse(encoded) : null;
    const target = parsed ?? {
      params: this.params,
      salt: randomBytes(SALT_BYTES),
      hash: randomBytes(KEY_LENGTH),
    };
    const key = await this.slot(() => derive(password, target.salt, target.params));
    return parsed !== null && key.length === target.hash.length && timingSafeEqual(key, target.hash);
  }

  /** Whether a stored hash uses weaker parameters than the current ones (upgrade it on login). */
  needsRehash(encoded: string): boolean {
    const parsed = parse(encoded);
    if (!parsed) return true;
    const { ln, r, p } = parsed.params;
    return ln < this.params.ln || r < this.params.r || p < this.params.p;
  }
}
