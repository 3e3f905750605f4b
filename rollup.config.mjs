import commonjs from '@rollup/plugin-commonjs';
import json from '@rollup/plugin-json';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { fileURLToPath } from 'node:url';
import { cssText } from './scripts/css-text.mjs';
import { precompress } from './scripts/precompress.mjs';
import { workerUrl } from './scripts/worker-url.mjs';

const LAZY_CLIENT = fileURLToPath(new URL('./scripts/react-dom-client-lazy.cjs', import.meta.url));

/**
 * Every import of `react-dom/client` (r2wc's, the floor's) but the shim's own gets
 * `scripts/react-dom-client-lazy.cjs`, so react-dom's start-up runs in the microtask after the bundle
 * has evaluated — after the first requests have gone out (src/after-evaluation.ts), while they are
 * under way — rather than in the middle of the evaluation, where defining the elements creates their
 * roots. The floor gets it too (same settings): its top-level `createRoot` starts react-dom at the end
 * of its small module's evaluation, as the bundle's elements do.
 */
function lazyReactDomClient() {
  return {
    name: 'lazy-react-dom-client',
    resolveId(source, importer) {
      return source === 'react-dom/client' && importer !== LAZY_CLIENT ? LAZY_CLIENT : null;
    },
  };
}

/**
 * The bundle: an ES module entry with lazily loaded chunks (one per language; later the manage area,
 * developer tools and QR), and one classic script for pages without a module pipeline.
 * `input` and the output names are parameters so the benchmark can build its React-only floor with the
 * very same settings.
 */
/** The build has no warnings. A warning fails it, so a new one cannot slip in unnoticed. */
export function onwarn(warning) {
  throw new Error(`rollup warning (${warning.code ?? 'unknown'}): ${warning.message}`);
}

/**
 * TypeScript compiled to JavaScript only (the declarations come from tsc), then minified. Not type
 * checked: `npm run typecheck` checks the whole tree, and with `isolatedModules` and
 * `verbatimModuleSyntax` each file compiles to the same JavaScript either way (docs/decisions/ci-time.md).
 */
function compileAndMinify(tsconfig) {
  return [
    typescript({
      tsconfig,
      compilerOptions: {
        declaration: false,
        emitDeclarationOnly: false,
        declarationDir: undefined,
        noEmit: false,
        noCheck: true,
      },
    }),
    terser({ format: { comments: false }, compress: { passes: 2 } }),
  ];
}

/** What a worker script needs of the bundle's plugins: its own modules compiled and minified, no more. */
function workerPlugins(tsconfig) {
  return [nodeResolve({ browser: true, extensions: ['.mjs', '.js', '.ts'] }), ...compileAndMinify(tsconfig)];
}

export function plugins(tsconfig = './tsconfig.build.json') {
  return [
    // A worker (`?worker-url`) is built on its own, with the same compiler settings.
    workerUrl(() => workerPlugins(tsconfig)),
    lazyReactDomClient(),
    replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
    nodeResolve({ browser: true, extensions: ['.mjs', '.js', '.ts', '.tsx', '.json'] }),
    commonjs(),
    json({ preferConst: true, compact: true }),
    cssText(),
    ...compileAndMinify(tsconfig),
    // `.br` and `.gz` beside every written `.js`, which the server sends by `Accept-Encoding`.
    precompress(),
  ];
}

/** A text part's language chunk is named after its part (`admin-en-…`), not only its language (`en-…`). */
function chunkFileName(chunk) {
  const part = /\/locales\/(\w+)\/[\w-]+\.json$/.exec(chunk.facadeModuleId ?? '')?.[1];
  return part ? `chunks/${part}-[name]-[hash].js` : 'chunks/[name]-[hash].js';
}

export function esmBuild(input, dir, entryFileNames, tsconfig) {
  return {
    input,
    plugins: plugins(tsconfig),
    onwarn,
    // Let the entry also export what its lazy chunks share with it: otherwise rollup moves the shared
    // code into a separate chunk behind a facade, and every page pays a second request before anything runs.
    preserveEntrySignatures: 'allow-extension',
    output: {
      dir,
      format: 'es',
      entryFileNames,
      chunkFileNames: chunkFileName,
      sourcemap: true,
    },
  };
}

export function iifeBuild(input, file, name) {
  return {
    input,
    plugins: plugins(),
    onwarn,
    output: { file, format: 'iife', name, inlineDynamicImports: true, sourcemap: true },
  };
}

export default [
  esmBuild('src/index.ts', 'dist', 'acct-elements.js'),
  iifeBuild('src/index.ts', 'dist/acct-elements.iife.js', 'AcctElements'),
];
