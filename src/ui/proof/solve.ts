import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { getChallenge } from '../../api/challenge';
import type { ApiContext } from '../../api/client';
import type { Challenge, Proof } from '../../contract/schemas/challenge';
import workerUrl from './worker?worker-url';

type Solution = Proof['solution'];

/** Solve in a worker of our own origin; null when no worker can start here (see solveHere). */
function inWorker(challenge: Challenge, signal: AbortSignal): Promise<Solution | null> | null {
  let worker: Worker;
  try {
    worker = new Worker(workerUrl);
  } catch {
    // A page of another origin cannot start a script of ours as a worker (nor may it, under a strict CSP,
    // from a blob): the element solves on the page's thread instead.
    return null;
  }
  return new Promise<Solution | null>((resolve, reject) => {
    const stop = () => {
      worker.terminate();
      reject(new DOMException('aborted', 'AbortError'));
    };
    signal.addEventListener('abort', stop, { once: true });
    worker.onmessage = (event: MessageEvent<Solution | null>) => {
      signal.removeEventListener('abort', stop);
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = () => {
      signal.removeEventListener('abort', stop);
      worker.terminate();
      // The script did not load (offline, or refused): try once more where the page runs.
      resolve(solveHere(challenge, signal));
    };
    worker.postMessage(challenge);
  });
}

/** Solve on the page's own thread: the library yields to the page every 200 ms. */
async function solveHere(challenge: Challenge, signal: AbortSignal): Promise<Solution | null> {
  const controller = new AbortController();
  signal.addEventListener('abort', () => controller.abort(), { once: true });
  const solution = await solveChallenge({ challenge, deriveKey, controller });
  if (signal.aborted) throw new DOMException('aborted', 'AbortError');
  return solution && { counter: solution.counter, derivedKey: solution.derivedKey };
}

/** Ask the server for a challenge and solve it; throws when either fails (the screen offers a retry). */
export async function solveProof(ctx: ApiContext, signal: AbortSignal): Promise<Proof> {
  const challenge = await getChallenge({ ...ctx, signal });
  const solution = await (inWorker(challenge, signal) ?? solveHere(challenge, signal));
  if (!solution) throw new Error('no solution');
  return { challenge, solution };
}
