import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const SEALED = 'aes256gcm';
const PLAIN = 'plain';

/**
 * Seals the secrets stored in the database (private signing keys, the anti-forgery secret) with
 * KEY_ENCRYPTION_KEY: AES-256-GCM from node:crypto, a fresh 96-bit IV each time, and the row the value
 * belongs to as associated data, so a sealed value copied into another row does not open. Without a key
 * (SQLite only: one machine, where the key file used to lie next to the database) values are stored as
 * they are, marked `plain.`; once a key is set, new values are sealed and old ones still open.
 */
export class Sealer {
  constructor(private readonly key: Buffer | null) {
    if (key && key.length !== 32) throw new Error('the key encryption key must be 32 bytes');
  }

  get sealing(): boolean {
    return this.key !== null;
  }

  seal(value: string, context: string): string {
    if (!this.key) return `${PLAIN}.${Buffer.from(value).toString('base64url')}`;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return [SEALED, ...[iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'))].join('.');
  }

  open(stored: string, context: string): string {
    const [kind, ...parts] = stored.split('.');
    if (kind === PLAIN && parts.length === 1) return Buffer.from(parts[0]!, 'base64url').toString('utf8');
    if (kind !== SEALED || parts.length !== 3) throw new Error(`${context}: not a sealed value`);
    if (!this.key)
      throw new Error(`${context} is sealed: set KEY_ENCRYPTION_KEY to the key it was sealed with`);
    const [iv, body, tag] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new Error(`${context} does not open with this KEY_ENCRYPTION_KEY`, { cause: error });
    }
  }
}
