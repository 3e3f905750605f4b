/**
 * The `proof` part: what the proof-of-work challenge costs a visitor — one solve by the element's own
 * worker (the built chunk, on a page of the server's origin under its CSP), at 1× and 4× CPU (Chromium's
 * throttling, as the time part does it). The difficulty is the server's (lib/proof-of-work.ts).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../../support/browser';
import { spread, type ServerProcess, type Spread } from '../harness';
import { heading, table } from '../output';
import { DIST, QUICK } from '../settings';
import { COST, MAX_COUNTER } from '../../../demo/server/lib/proof-of-work';

export interface ProofFigures {
  cost: number;
  maxCounter: number;
  solves: number;
  results: Array<{ throttle: number; ms: Spread }>;
}

const THROTTLES = [1, 4];

export async function proof(identity: ServerProcess): Promise<ProofFigures> {
  const worker = readdirSync(join(DIST, 'chunks')).find((name) => /^worker-[\w-]{8}\.js$/.test(name));
  if (!worker) throw new Error('no worker chunk in dist/chunks: run npm run build');
  const solves = QUICK ? 3 : 12;
  const browser = await launchBrowser();
  const results: ProofFigures['results'] = [];
  try {
    for (const throttle of THROTTLES) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        // A page of the server's own origin, so the worker starts as the element starts it.
        await page.goto(`${identity.url}/login/acme/forgotPassword`);
        const cdp = await context.newCDPSession(page);
        if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
        const ms: number[] = [];
        for (let i = 0; i < solves; i++) {
          ms.push(
            await page.evaluate(async (path) => {
              const challenge: unknown = await (await fetch('/account/challenge')).json();
              const start = performance.now();
              const solver = new Worker(path);
              const solution = await new Promise<unknown>((resolve) => {
                solver.onmessage = (event: MessageEvent) => resolve(event.data);
                solver.postMessage(challenge);
              });
              solver.terminate();
              if (!solution) throw new Error('no solution');
              return performance.now() - start;
            }, `/dist/chunks/${worker}`),
          );
        }
        results.push({ throttle, ms: spread(ms) });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  heading(`Proof of work: one solve in the element's worker (PBKDF2 × ${COST}, counter ≤ ${MAX_COUNTER})`);
  table(
    ['CPU', 'median ms', 'min ms', 'max ms', 'solves'],
    results.map((r) => [
      `${r.throttle}×`,
      Math.round(r.ms.median),
      Math.round(r.ms.min),
      Math.round(r.ms.max),
      solves,
    ]),
  );
  return { cost: COST, maxCounter: MAX_COUNTER, solves, results };
}
