// Types for the TypeScript files that import the rollup configuration (the build output tests).
import type { RollupLog, RollupOptions } from 'rollup';

export declare function onwarn(warning: Pick<RollupLog, 'code' | 'message'>): never;
export declare function esmBuild(
  input: string,
  dir: string,
  entryFileNames: string,
  tsconfig?: string,
): RollupOptions;
export declare function iifeBuild(input: string, file: string, name: string): RollupOptions;
declare const config: RollupOptions[];
export default config;
