/**
 * `npm test` and `npm run test:postgres` start with scripts/system-deps.mjs: it passes at once when the
 * programs are there, and stops at once, saying what to do, when they cannot be (installing with
 * apt-get as root is what `.ci/run` on a fresh machine shows).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'scripts', 'system-deps.mjs');

function run(names: string[], env: Record<string, string> = {}) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [SCRIPT, ...names], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: result.status, stderr: result.stderr, ms: Date.now() - started };
}

describe('scripts/system-deps.mjs', () => {
  it('passes quietly when Chromium and PostgreSQL are there', () => {
    const { status, stderr } = run(['chromium', 'postgresql']);
    assert.equal(status, 0, stderr);
    assert.equal(stderr, '');
  });

  it('stops at once, naming the setting to fix, when CHROMIUM_PATH names no program', () => {
    const { status, stderr, ms } = run(['chromium'], { CHROMIUM_PATH: '/nonexistent/chromium' });
    assert.equal(status, 1);
    assert.match(stderr, /\/nonexistent\/chromium\) not found: fix CHROMIUM_PATH/);
    assert.ok(ms < 5000, `stopped after ${ms} ms`);
  });

  it('refuses a dependency it does not know', () => {
    const { status, stderr } = run(['mysql']);
    assert.equal(status, 1);
    assert.match(stderr, /unknown dependency: mysql/);
  });
});
