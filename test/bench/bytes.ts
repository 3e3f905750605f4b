import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface Size {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export function sizeOf(path: string, root: string): Size {
  const data = readFileSync(path);
  return {
    file: relative(root, path),
    raw: data.length,
    gzip: gzipSync(data, { level: 9 }).length,
    brotli: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
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
