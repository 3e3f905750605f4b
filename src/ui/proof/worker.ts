/// <reference lib="webworker" />
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import type { Challenge } from '../../contract/schemas/challenge';

/**
 * The proof-of-work solver, started by solve.ts from our own origin: given a challenge it answers the
 * counter and key it found, or null. Web Crypto's PBKDF2 does the work off the page's main thread.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = async (event: MessageEvent<Challenge>) => {
  try {
    const solution = await solveChallenge({ challenge: event.data, deriveKey });
    scope.postMessage(solution ? { counter: solution.counter, derivedKey: solution.derivedKey } : null);
  } catch {
    scope.postMessage(null);
  }
};
