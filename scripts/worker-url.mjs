import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { rollup } from 'rollup';

const SUFFIX = '?worker-url';

/**
 * `import url from './worker?worker-url'` gives the address of `./worker.ts` built on its own — one
 * self-contained classic script with its own copy of what it imports — written beside the chunks as
 * `chunks/<name>-<hash>.js` (so the server caches it as immutable and precompresses it). A worker
 * started from that address is a script of the page's own origin: no `blob:` and no change to the
 * strict CSP. `workerPlugins` builds it with the bundle's own settings; `chunksDir` is where the
 * chunks are written, which its source map's paths are relative to.
 */
export function workerUrl(workerPlugins, chunksDir = resolve('dist/chunks')) {
  return {
    name: 'worker-url',
    async resolveId(source, importer) {
      if (!source.endsWith(SUFFIX)) return null;
      const resolved = await this.resolve(source.slice(0, -SUFFIX.length), importer, { skipSelf: true });
      return resolved ? `\0worker-url:${resolved.id}` : null;
    },
    async load(id) {
      if (!id.startsWith('\0worker-url:')) return null;
      const input = id.slice('\0worker-url:'.length);
      this.addWatchFile(input);
      const build = await rollup({
        input,
        plugins: workerPlugins(),
        onwarn(warning) {
          throw new Error(`rollup warning in the worker (${warning.code ?? 'unknown'}): ${warning.message}`);
        },
      });
      // Its source map as the chunks have theirs, its sources relative to where it is written.
      const { output } = await build.generate({ format: 'iife', sourcemap: 'hidden', dir: chunksDir });
      await build.close();
      const { code, map } = output[0];
      const hash = createHash('sha256').update(code).digest('base64url').slice(0, 8);
      const name = `${input.replace(/^.*\//, '').replace(/\.ts$/, '')}-${hash}.js`;
      const ref = this.emitFile({
        type: 'asset',
        fileName: `chunks/${name}`,
        source: `${code.trimEnd()}\n//# sourceMappingURL=${name}.map\n`,
      });
      this.emitFile({ type: 'asset', fileName: `chunks/${name}.map`, source: map.toString() });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
  };
}
