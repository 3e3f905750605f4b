/**
 * Loaded first in every Node 24 test process (scripts/node24.mjs): `better-sqlite3` resolves to the copy
 * for Node 24 (NODE24_SQLITE) instead of the clone's node_modules, built for Node 20 — a native addon
 * of better-sqlite3 12 loads only in the Node it was built for.
 */
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const copy = process.env.NODE24_SQLITE;
if (copy) {
  const entry = pathToFileURL(join(copy, 'lib', 'index.js')).href;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier !== 'better-sqlite3') return nextResolve(specifier, context);
      return { url: entry, format: 'commonjs', shortCircuit: true };
    },
  });
}
