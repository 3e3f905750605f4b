import type { FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Language } from '../../../src/contract/languages';
import { PASSWORD_MAX, PASSWORD_MIN, type PasswordProblem } from '../../../src/contract/password-rules';
import { serverText } from '../mail/texts';

/** Why a new password is refused by the rules (design §4), or null when it is acceptable. */
export type PolicyProblem = Exclude<PasswordProblem, 'breached'>;

const COMMON = new Set(
  readFileSync(join(import.meta.dirname, 'common-passwords.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.normalize('NFC').toLowerCase()),
);

/** Length in characters as a person counts them (code points), never truncated. */
const length = (value: string) => Array.from(value.normalize('NFC')).length;

export function checkPassword(password: string, email: string): PolicyProblem | null {
  if (length(password) < PASSWORD_MIN) return 'tooShort';
  if (length(password) > PASSWORD_MAX) return 'tooLong';
  const folded = password.normalize('NFC').trim().toLowerCase();
  if (folded === email.normalize('NFC').trim().toLowerCase()) return 'sameAsEmail';
  if (COMMON.has(folded)) return 'common';
  return null;
}

/** Why a new password is refused: the rules above, or its presence in a known breach. */
export type NewPasswordProblem = PasswordProblem;

/** A refusal in words, in `language`, for the answer's `message` (its `code` is the problem). */
export function policyText(language: Language, problem: NewPasswordProblem): string {
  return serverText(language, `policy.${problem}`, { min: PASSWORD_MIN, max: PASSWORD_MAX });
}

export interface NewPasswordVerdict {
  problem: NewPasswordProblem | null;
  /**
   * The breach check had no answer and the password was accepted without it (the check fails open:
   * docs/decisions/breached-passwords.md); the caller records it in the user's security log.
   */
  unchecked: boolean;
}

/**
 * The server's verdict on a new password: the rules first (nothing leaves the server for a password
 * they refuse anyway), then the Pwned Passwords check. When the service cannot be reached or answers
 * badly, the password is accepted and the server logs why.
 */
export async function checkNewPassword(
  request: FastifyRequest,
  password: string,
  email: string,
): Promise<NewPasswordVerdict> {
  const problem = checkPassword(password, email);
  if (problem) return { problem, unchecked: false };
  const answer = await request.server.services.breachCheck(password);
  if ('breached' in answer) return { problem: answer.breached ? 'breached' : null, unchecked: false };
  request.log.warn({ reason: answer.unavailable }, 'breached-password check unavailable: password accepted');
  return { problem: null, unchecked: true };
}
