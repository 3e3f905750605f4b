import { esmBuild } from '../../../rollup.config.mjs';

/** The floor, built exactly like the bundle (same plugins, same minifier). */
export default esmBuild(
  'test/bench/floor/floor.tsx',
  'test-results/bench/floor',
  'floor.js',
  './test/bench/floor/tsconfig.json',
);
