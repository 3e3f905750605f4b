/**
 * The password-hash bound, in its own process: `node --import tsx hash-bound.ts <seconds> <concurrency>`
 * prints `{ "hashesPerSecond": … }`. Its own process so that it gets the same `UV_THREADPOOL_SIZE` as the
 * server (the pool size is fixed when a process first uses it) and does not share a CPU with the load
 * generator's bookkeeping.
 */
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { PasswordHasher } from '../../demo/server/lib/password';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 1);
// The server's own class and parameters (SCRYPT_PARAMS), at the server's concurrency.
const hasher = new PasswordHasher(concurrency, 1000);
const hash = await hasher.hash(DEMO_PASSWORD);
// One verification per worker first, so the measured window does not include the pool's start.
await Promise.all(Array.from({ length: concurrency }, () => hasher.verify(DEMO_PASSWORD, hash)));
let done = 0;
const started = performance.now();
const end = started + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      await hasher.verify(DEMO_PASSWORD, hash);
      done++;
    }
  }),
);
process.stdout.write(
  `${JSON.stringify({ hashesPerSecond: done / ((performance.now() - started) / 1000) })}\n`,
);
