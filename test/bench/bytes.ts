import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface Size {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

/** Raw, gzip (level 9) and brotli (quality 11) sizes of a body. */
export function compress(file: string, data: Buffer): Size {
  return {
    file,
    raw: data.length,
    gzip: gzipSync(data, { level: 9 }).length,
    brotli: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

export function sizeOf(path: string, root: string): Size {
  return compress(relative(root, path), readFileSync(path));
}

/** Every .js file under a folder (source maps and declarations left out). */
export function scripts(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.js') && statSync(join(dir, name)).isFile())
    .sort()
    .map((name) => join(dir, name));
}

export function sum(sizes: Size[], file: string): Size {
  return sizes.reduce(
    (total, size) => ({
      file,
      raw: total.raw + size.raw,
      gzip: total.gzip + size.gzip,
      brotli: total.brotli + size.brotli,
    }),
    { file, raw: 0, gzip: 0, brotli: 0 },
  );
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** What a lazy chunk is for, from its name (rollup names a chunk after its module). */
export function chunkKind(file: string): string {
  const name = file.replace(/^.*\//, '').replace(/-[A-Za-z0-9_-]{8}\.js$/, '');
  // A language's tag: two letters, or with a script (zh-Hans).
  if (/^[a-z]{2}(-[A-Z][a-z]{3})?$/.test(name)) return `language (${name})`;
  const part = /^(\w+)-([a-z]{2}(?:-[A-Z][a-z]{3})?)$/.exec(name);
  if (part) return `texts: ${part[1]} (${part[2]})`;
  if (/^strength-meter$/.test(name)) return 'password strength meter';
  if (/^invite-screen$/.test(name)) return 'login: invitation';
  if (/^reset-screen$/.test(name)) return 'login: password reset';
  if (/^token-/.test(name)) return 'developer tools';
  if (/^qr-/.test(name)) return 'QR code login';
  if (/^manage-/.test(name)) return 'manage';
  if (/^(team|user|group)-page$/.test(name)) return 'manage: team administration';
  if (/^search-page$/.test(name)) return 'portal: search';
  return 'shared by lazy chunks';
}
