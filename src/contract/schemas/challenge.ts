import { Type, type Static } from 'typebox';
import { errors, type RouteSchema } from './common';

/** A hex string of at most `max` characters. */
const hex = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '^[0-9a-f]+$' });

/**
 * A proof-of-work challenge as the server signs it (altcha v2): what the client must find a counter
 * for, and the server's HMAC over it, so the server keeps nothing until a solution comes back.
 */
export const ChallengeParameters = Type.Object(
  {
    algorithm: Type.String({ maxLength: 20 }),
    nonce: hex(64),
    salt: hex(64),
    cost: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    keyLength: Type.Integer({ minimum: 1, maximum: 64 }),
    keyPrefix: hex(128),
    keySignature: Type.Optional(hex(128)),
    expiresAt: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export const Challenge = Type.Object(
  { parameters: ChallengeParameters, signature: hex(128) },
  { additionalProperties: false },
);
export type Challenge = Static<typeof Challenge>;

/** `GET /account/challenge`: a fresh challenge (no session needed); 429 when an address asks too often. */
export const challengeSchema = {
  response: { 200: Challenge, ...errors(400, 429, 500) },
} satisfies RouteSchema;

/**
 * The `proof` field of a request that a route may require it on (forgot password; sign-in after
 * failures): the challenge as issued and the counter found with the key it derives. Each is accepted
 * once. Refusals are 403 with a `code`: `challengeRequired` (none sent, or the route asks for one
 * now), `challengeExpired`, `challengeUsed` or `challengeInvalid` (tampered or wrong).
 */
export const ProofField = Type.Object(
  {
    challenge: Challenge,
    solution: Type.Object(
      {
        counter: Type.Integer({ minimum: 0, maximum: 0xffffffff }),
        derivedKey: hex(128),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type Proof = Static<typeof ProofField>;

export type ProofRefusal = 'challengeRequired' | 'challengeExpired' | 'challengeUsed' | 'challengeInvalid';
export const PROOF_REFUSALS: readonly ProofRefusal[] = [
  'challengeRequired',
  'challengeExpired',
  'challengeUsed',
  'challengeInvalid',
];
