/**
 * The longest values the identity server accepts for what a user types: the fields' `maxlength` and the
 * server's schemas use these same numbers, so a field never holds more than the server takes.
 */
export const LIMITS = {
  teamName: 100,
  email: 320,
  /** A password to check (sign-in, the current one): long enough for any real password. */
  password: 1024,
  /** A new password: the server refuses more (its policy allows 8–128 and says so). */
  newPassword: 4096,
  /** A name as the server takes it; the name rule itself (at most 50, spec §5) has its own message. */
  name: 1000,
} as const;
