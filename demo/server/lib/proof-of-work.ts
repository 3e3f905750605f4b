import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { UsedChallengesRepository } from '../db/used-challenges';
import type { Challenge, Proof, ProofRefusal } from '../../../src/contract/schemas/challenge';
import type { Clock } from './clock';
import { hmac, sha256 } from './crypto';

/**
 * The work asked of a browser (docs/decisions/proof-of-work.md): PBKDF2-SHA-256 of `COST` iterations
 * per try, the answer a counter drawn between half of `MAX_COUNTER` and all of it, so a solve takes a
 * bounded number of tries (on average three quarters of the most).
 */
export const ALGORITHM = 'PBKDF2/SHA-256';
export const COST = 1000;
export const MAX_COUNTER = 2000;
/** A challenge must come back solved within five minutes. */
export const CHALLENGE_MS = 5 * 60_000;

export interface Difficulty {
  cost: number;
  maxCounter: number;
}

const MESSAGES: Record<ProofRefusal, string> = {
  challengeRequired: 'solve the proof-of-work challenge first',
  challengeExpired: 'the proof-of-work challenge has expired',
  challengeUsed: 'the proof-of-work challenge was used already',
  challengeInvalid: 'the proof-of-work solution is wrong',
};

/** The 403 answer for a proof refused (or missing), with its code for the client. */
export function refuseProof(reply: FastifyReply, code: ProofRefusal): FastifyReply {
  return reply.code(403).send({ message: MESSAGES[code], code });
}

/**
 * Proof-of-work challenges (altcha v2): signed with an HMAC key derived from the server secret every
 * node shares, so any node verifies what any node issued; each solution is accepted once, on any node,
 * by one insert into `used_challenges`.
 */
export class ProofOfWork {
  private readonly signatureKey: string;
  private readonly keySignatureKey: string;

  constructor(
    secret: Buffer,
    private readonly used: UsedChallengesRepository,
    private readonly clock: Clock,
    private readonly difficulty: Difficulty = { cost: COST, maxCounter: MAX_COUNTER },
  ) {
    this.signatureKey = hmac(secret, 'proof-of-work challenge');
    this.keySignatureKey = hmac(secret, 'proof-of-work key');
  }

  /**
   * A new challenge. The counter is drawn here and the key it derives signed, so checking a solution is
   * one HMAC (not a derivation); the cost of issuing is one derivation, which the issuing route limits.
   */
  async issue(): Promise<Challenge> {
    const { cost, maxCounter } = this.difficulty;
    const low = Math.floor(maxCounter / 2);
    const challenge = await createChallenge({
      algorithm: ALGORITHM,
      cost,
      counter: low + randomInt(maxCounter - low),
      deriveKey,
      expiresAt: Math.floor((this.clock.now() + CHALLENGE_MS) / 1000),
      hmacSignatureSecret: this.signatureKey,
      hmacKeySignatureSecret: this.keySignatureKey,
    });
    return challenge as Challenge;
  }

  /** Accept a solution once: null when it is good (and now spent), else why it is refused. */
  async spend(proof: Proof | undefined): Promise<ProofRefusal | null> {
    if (!proof) return 'challengeRequired';
    const now = this.clock.now();
    const expiresAt = proof.challenge.parameters.expiresAt * 1000;
    if (expiresAt <= now) return 'challengeExpired';
    // Only the parameters this server issues: a different algorithm or a cheaper cost is not our work.
    if (
      proof.challenge.parameters.algorithm !== ALGORITHM ||
      proof.challenge.parameters.cost !== this.difficulty.cost
    )
      return 'challengeInvalid';
    const result = await verifySolution({
      challenge: proof.challenge,
      solution: proof.solution,
      deriveKey,
      hmacSignatureSecret: this.signatureKey,
      hmacKeySignatureSecret: this.keySignatureKey,
    });
    if (result.expired) return 'challengeExpired';
    if (!result.verified) return 'challengeInvalid';
    const first = await this.used.spend(sha256(proof.challenge.signature), expiresAt, now);
    return first ? null : 'challengeUsed';
  }
}

/** The body of a route that may carry a proof. */
interface WithProof {
  proof?: Proof;
}

/**
 * The requirement as a route's `preHandler`: the body's `proof` must be a good, unused solution, or the
 * route answers 403 with the refusal's code. `when` decides per request whether one is needed (always
 * when left out). Runs after the schema, so the proof is well-formed when it is there at all.
 */
export function requireProof(
  when?: (request: FastifyRequest) => boolean | Promise<boolean>,
): preHandlerAsyncHookHandler {
  return async function (request, reply) {
    if (when && !(await when(request))) return;
    const refusal = await this.services.proofOfWork.spend((request.body as WithProof | undefined)?.proof);
    if (refusal) return refuseProof(reply, refusal);
  };
}
