import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { PasswordHasher } from '../../demo/server/lib/password';

export interface LoginLoad {
  hashesPerSecond: number;
  loginsPerSecond: number;
  ratio: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  serverErrors: number;
  errors: number;
  concurrency: number;
}

/** The password-hash bound: verifications per second with the server's own parameters and parallelism. */
export async function hashBound(seconds = 5): Promise<number> {
  const parallel = Math.max(1, availableParallelism());
  const hasher = new PasswordHasher(parallel, 1000);
  const hash = await hasher.hash(DEMO_PASSWORD);
  let done = 0;
  const end = Date.now() + seconds * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (Date.now() < end) {
        await hasher.verify(DEMO_PASSWORD, hash);
        done++;
      }
    }),
  );
  return done / ((Date.now() - started) / 1000);
}

/** POST /account/login with valid credentials under concurrency, for `seconds`. */
export async function loginLoad(
  url: string,
  hashesPerSecond: number,
  seconds = 10,
  concurrency = 8,
): Promise<LoginLoad> {
  const result = await autocannon({
    url: `${url}/account/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ teamName: 'acme', email: 'ada@acme.test', password: DEMO_PASSWORD }),
    connections: concurrency,
    duration: seconds,
    timeout: 30,
  });
  const ok = result['2xx'];
  const loginsPerSecond = ok / seconds;
  return {
    hashesPerSecond,
    loginsPerSecond,
    ratio: loginsPerSecond / hashesPerSecond,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    non2xx: result.non2xx,
    serverErrors: result['5xx'],
    errors: result.errors + result.timeouts,
    concurrency,
  };
}
