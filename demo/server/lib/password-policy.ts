import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PASSWORD_MAX, PASSWORD_MIN } from './password';

/** Why a new password is refused (design §4), or null when it is acceptable. */
export type PolicyProblem = 'tooShort' | 'tooLong' | 'sameAsEmail' | 'common';

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
