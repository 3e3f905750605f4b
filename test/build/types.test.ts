/**
 * The published types: a host application compiles against dist/types alone — the tag map,
 * the typed acct-* events and the JSX elements — and package.json points at the files the build wrote.
 * The API's types come from the server's schemas (`import type` in src/api/endpoints.ts), so the build
 * publishes those declarations too (dist/types/src/contract/schemas): compiling endpoints.d.ts checks
 * that nothing they name is missing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** `tsc --noEmit -p <project>`: what it printed (nothing when the project compiles). */
function compile(project: string): { output: string; status: number | null } {
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project, '--pretty', 'false'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return { output: `${tsc.stdout}${tsc.stderr}`.trim(), status: tsc.status };
}

describe('the published types', () => {
  it('type-check a host using the tags, the acct-* events and JSX (test/build/fixtures/host.tsx)', () => {
    assert.ok(
      existsSync(join(ROOT, 'dist/types/src/index.d.ts')),
      'dist/types is missing: run npm run build',
    );
    const { output, status } = compile('test/build/fixtures/tsconfig.json');
    assert.equal(output, '');
    assert.equal(status, 0);
  });

  it('are where package.json says, with custom-elements.json and both bundles', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      types: string;
      customElements: string;
      exports: Record<string, string | Record<string, string>>;
    };
    const entry = pkg.exports['.'] as Record<string, string>;
    const files = [pkg.types, pkg.customElements, entry.types, entry.import, pkg.exports['./iife']];
    assert.ok(files.every((file) => typeof file === 'string'));
    for (const file of files as string[]) assert.ok(existsSync(join(ROOT, file)), `${file} is missing`);
  });
});
