import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance } from 'fastify';
import type { Challenge, Proof } from '../../src/contract/schemas/challenge';

/** A fresh challenge from the server. */
export async function challengeOf(app: FastifyInstance): Promise<Challenge> {
  const response = await app.inject({ method: 'GET', url: '/account/challenge' });
  if (response.statusCode !== 200) throw new Error(`challenge: ${response.statusCode} ${response.body}`);
  return response.json<Challenge>();
}

/** Solve a challenge as a browser's worker would (the same library, Node's key derivation). */
export async function solve(challenge: Challenge): Promise<Proof> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution found');
  return { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } };
}

/** A solved proof from the server's own challenge, for a route that requires one. */
export async function proofFor(app: FastifyInstance): Promise<Proof> {
  return solve(await challengeOf(app));
}

/** The same from a running server (a cluster's balancer, a stress test's node). */
export async function proofAt(baseUrl: string): Promise<Proof> {
  const response = await fetch(new URL('/account/challenge', baseUrl));
  if (!response.ok) throw new Error(`challenge: ${response.status}`);
  return solve((await response.json()) as Challenge);
}
