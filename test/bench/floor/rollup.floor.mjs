import { esmBuild } from '../../../rollup.config.mjs';

/**
 * The floors, built exactly like the bundle (same plugins, same minifier), each in its own folder so
 * its bytes can be summed alone.
 */
export default [
  esmBuild(
    'test/bench/floor/floor.tsx',
    'test-results/bench/floor/login',
    'floor.js',
    './test/bench/floor/tsconfig.json',
  ),
  esmBuild(
    'test/bench/floor/minimal-floor.tsx',
    'test-results/bench/floor/minimal',
    'minimal-floor.js',
    './test/bench/floor/tsconfig.json',
  ),
  esmBuild(
    'test/bench/floor/header-floor.tsx',
    'test-results/bench/floor/header',
    'header-floor.js',
    './test/bench/floor/tsconfig.json',
  ),
];
