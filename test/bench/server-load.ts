import autocannon from 'autocannon';
import { medianBy } from './harness';

export interface Target {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /**
   * Each request's own body (autocannon's `setupRequest`: a single-use code, a rotating token), and what
   * is done with each answer (`onResponse`). autocannon clears a connection's context between requests,
   * so state lives with the caller.
   */
  next?: () => string;
  answered?: (status: number, body: string) => void;
  /** Stop after this many requests (single-use codes run out), not after a duration; the first fifth warms up. */
  amount?: number;
}

export interface LoadResult {
  name: string;
  /** Successful (2xx) answers per second. */
  requestsPerSecond: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  serverErrors: number;
  /** Connection errors and timeouts. */
  errors: number;
  seconds: number;
  connections: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;

/**
 * autocannon against one route on loopback. The figures come from a steady-state window: every answer
 * is timed as it arrives, and only those arriving between `warmup` seconds after the start and
 * `seconds` later count — so neither the JIT and connection set-up at the start nor the requests cut
 * off at the end (which matter for sign-in, where a request takes a second) bend the rate. Error, 5xx
 * and non-2xx counts cover the whole run.
 */
export async function load(
  url: string,
  target: Target,
  seconds: number,
  connections: number,
  warmup = 1,
): Promise<LoadResult> {
  const answers: Array<{ at: number; status: number; ms: number }> = [];
  // Refined by autocannon's own start event, when it comes.
  let started = performance.now();
  const result = await new Promise<autocannon.Result>((resolveRun, reject) => {
    const instance = autocannon(
      {
        url: `${url}${target.path}`,
        method: target.method ?? 'GET',
        headers: target.headers ?? {},
        body: target.body,
        ...(target.next && {
          requests: [
            {
              setupRequest: (request) => ({ ...request, body: target.next!() }),
              ...(target.answered && { onResponse: target.answered }),
            },
          ],
        }),
        ...(target.amount !== undefined && { amount: target.amount }),
        connections,
        timeout: 30,
        duration: warmup + seconds,
      },
      (error, finished) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolveRun(finished),
    );
    instance.on('start', () => {
      started = performance.now();
    });
    instance.on('response', (_client, status, _bytes, ms) => {
      answers.push({ at: performance.now(), status, ms });
    });
  });
  // A fixed amount ends when it is spent, however fast: its window is the answers after the first
  // fifth (the warm-up), from the first of them to the last.
  const fixed = target.amount !== undefined;
  const skipped = answers[Math.floor(answers.length / 5)];
  const from = fixed ? (skipped?.at ?? started) : started + warmup * 1000;
  const to = fixed ? Infinity : from + seconds * 1000;
  const windowSeconds = fixed ? Math.max(0.001, ((answers.at(-1)?.at ?? from) - from) / 1000) : seconds;
  const inWindow = answers.filter((a) => a.at >= from && a.at < to);
  const ok = inWindow.filter((a) => a.status >= 200 && a.status < 300);
  const latencies = ok.map((a) => a.ms).sort((a, b) => a - b);
  return {
    name: target.name,
    requestsPerSecond: ok.length / windowSeconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ok: ok.length,
    non2xx: result.non2xx,
    serverErrors: result['5xx'],
    errors: result.errors + result.timeouts,
    seconds: windowSeconds,
    connections,
  };
}

/**
 * `count` measurements taken in `rounds` rounds, every one once per round, in turn forward and backward
 * (A B C, C B A, A B C, …): a drift in the machine's speed during a round then touches the first and the
 * last alike over two rounds. Returns each measurement's samples, one per round.
 */
export async function inRounds<T>(
  count: number,
  rounds: number,
  measure: (index: number) => Promise<T>,
): Promise<T[][]> {
  const samples = Array.from({ length: count }, () => [] as T[]);
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < count; step++) {
      const index = round % 2 === 0 ? step : count - 1 - step;
      samples[index]!.push(await measure(index));
    }
  }
  return samples;
}

/** The median round by throughput, with the errors of every round. */
export function medianRound(list: LoadResult[]): LoadResult {
  return {
    ...medianBy(list, (r) => r.requestsPerSecond),
    non2xx: list.reduce((n, r) => n + r.non2xx, 0),
    serverErrors: list.reduce((n, r) => n + r.serverErrors, 0),
    errors: list.reduce((n, r) => n + r.errors, 0),
  };
}

export interface ProbeLatency {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * The event loop's responsiveness seen from outside: GET `path` (a route that does nothing) every
 * `everyMs` while `during` runs, one at a time; each latency is the time the request waited for the
 * server's loop plus the loopback round trip and the bench's own scheduling.
 */
export async function probeDuring<T>(
  url: string,
  during: Promise<T>,
  everyMs = 50,
  path = '/healthz',
): Promise<{ result: T; probe: ProbeLatency }> {
  const latencies: number[] = [];
  let done = false;
  const finished = during.finally(() => {
    done = true;
  });
  const sampler = (async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${url}${path}`);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  const result = await finished;
  await sampler;
  const sorted = latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    result,
    probe: {
      samples: sorted.length,
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? 0),
    },
  };
}
