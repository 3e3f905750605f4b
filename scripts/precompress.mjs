/**
 * Pre-compressed copies of the bundle's files: `x.js.br` (brotli, quality 11) and `x.js.gz` (gzip,
 * level 9) beside `x.js`, for the server to send by the request's `Accept-Encoding` without compressing
 * anything per request. Used by the rollup build (`precompress()`) and, for files written after it
 * (custom-elements.json), from the command line: `node scripts/precompress.mjs <file>…`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Write `path.br` and `path.gz`, both at the highest level. */
export async function precompressFile(path) {
  const data = await readFile(path);
  const [br, gz] = await Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gzipAsync(data, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
}

/**
 * The rollup plugin: once the files are written, every `.js` of the output gets its `.br` and `.gz`.
 * Read back from disk, so the copies hold exactly what was written (source-map comment included).
 * Source maps are left alone: only DevTools fetch them, and brotli at quality 11 would add seconds to
 * every build for them.
 */
export function precompress() {
  return {
    name: 'precompress',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? dirname(options.file);
      const files = Object.keys(bundle).filter((name) => name.endsWith('.js'));
      await Promise.all(files.map((name) => precompressFile(join(dir, name))));
    },
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await Promise.all(process.argv.slice(2).map(precompressFile));
}
