/** The `login` part: sign-in throughput against the password-hash bound, and the event loop meanwhile. */
import { DEMO_PASSWORD } from '../../../demo/server/db/seed';
import { HASH_CONCURRENCY, SERVER_ENV, hashBound, type LoopDelay, type ServerProcess } from '../harness';
import { LOAD_COLUMNS, fixed, heading, table, verdict } from '../output';
import { load, probeDuring, type LoadResult, type ProbeLatency, type Target } from '../server-load';
import { BUDGETS, LOGIN_CONNECTIONS, SETTINGS } from '../settings';

export interface LoginFigures {
  hashesPerSecond: number;
  load: LoadResult;
  loginsPerSecond: number;
  ratio: number;
  idleProbe: ProbeLatency;
  probe: ProbeLatency;
  loopDelay: LoopDelay;
  connections: number;
  hashConcurrency: number;
  threadpool: number;
}

const LOGIN_TARGET: Target = {
  name: 'POST /account/login',
  path: '/account/login',
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ teamName: 'acme', email: 'ada@acme.test', password: DEMO_PASSWORD }),
};

export async function loginFigures(
  server: ServerProcess,
  seconds: number,
  hashesPerSecond: number,
  connections = LOGIN_CONNECTIONS,
): Promise<LoginFigures> {
  const { probe: idleProbe } = await probeDuring(server.url, new Promise((r) => setTimeout(r, 1000)));
  await server.loopDelay(); // start the server's histogram afresh
  const { result, probe } = await probeDuring(
    server.url,
    load(server.url, LOGIN_TARGET, seconds, connections, SETTINGS.loginWarmup),
  );
  const loopDelay = await server.loopDelay();
  return {
    hashesPerSecond,
    load: result,
    loginsPerSecond: result.requestsPerSecond,
    ratio: result.requestsPerSecond / hashesPerSecond,
    idleProbe,
    probe,
    loopDelay,
    connections,
    hashConcurrency: HASH_CONCURRENCY,
    threadpool: Number(SERVER_ENV.UV_THREADPOOL_SIZE),
  };
}

export async function login(
  server: ServerProcess,
): Promise<LoginFigures & { boundBefore: number; boundAfter: number }> {
  // The bound before and after the load, averaged: a machine that slows down meanwhile moves both.
  const boundBefore = await hashBound(SETTINGS.boundSeconds);
  const measured = await loginFigures(server, SETTINGS.loginSeconds, boundBefore);
  const boundAfter = await hashBound(SETTINGS.boundSeconds);
  const bound = (boundBefore + boundAfter) / 2;
  const figures = {
    ...measured,
    hashesPerSecond: bound,
    ratio: measured.loginsPerSecond / bound,
    boundBefore,
    boundAfter,
  };
  heading('Sign-in throughput against the password-hash bound');
  console.log(
    `Hash bound: scrypt verifications/s with the server's parameters at its concurrency (${HASH_CONCURRENCY}),\n` +
      `in a process with the same UV_THREADPOOL_SIZE (${SERVER_ENV.UV_THREADPOOL_SIZE}). Load: ${LOGIN_CONNECTIONS} connections\n` +
      `for ${SETTINGS.loginSeconds} s after ${SETTINGS.loginWarmup} s of warm-up; bound measured before / after. Event-loop delay, two ways: the latency of GET /healthz sampled every 50 ms\n` +
      "during the load (idle figure for comparison; includes loopback and the bench's own scheduling), and\n" +
      "the server process's own event-loop delay histogram (perf_hooks, preloaded by the bench).\n",
  );
  const l = figures.load;
  table(
    [
      'hashes/s (bound)',
      'logins/s',
      '÷ bound',
      ...LOAD_COLUMNS,
      '/healthz p99 idle → load',
      'loop delay p99 (max)',
      'budget',
    ],
    [
      [
        `${fixed(figures.hashesPerSecond, 2)} (${fixed(boundBefore, 2)} / ${fixed(boundAfter, 2)})`,
        fixed(figures.loginsPerSecond, 2),
        fixed(figures.ratio, 2),
        fixed(l.p50),
        fixed(l.p99),
        l.ok,
        l.non2xx,
        l.serverErrors,
        l.errors,
        `${fixed(figures.idleProbe.p99, 1)} → ${fixed(figures.probe.p99, 1)} ms`,
        `${fixed(figures.loopDelay.p99, 1)} (${fixed(figures.loopDelay.max, 1)}) ms`,
        `≥ ${BUDGETS.loginRatio}, 0 5xx: ${verdict(figures.ratio >= BUDGETS.loginRatio && l.serverErrors === 0)}`,
      ],
    ],
  );
  return figures;
}
