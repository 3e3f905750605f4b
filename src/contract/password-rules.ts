/**
 * A new password's rules (design §4), as the server applies them and a screen words its refusal: the
 * length in characters, and why a password may be refused — too short or long, the person's own
 * address, on the server's list of common passwords, or in a known breach (the refusal's `code`).
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const PASSWORD_PROBLEMS = ['tooShort', 'tooLong', 'sameAsEmail', 'common', 'breached'] as const;
export type PasswordProblem = (typeof PASSWORD_PROBLEMS)[number];

/** The refusal code of an answer, when it is a password rule's. */
export function passwordProblem(code: unknown): PasswordProblem | null {
  return PASSWORD_PROBLEMS.find((problem) => problem === code) ?? null;
}
