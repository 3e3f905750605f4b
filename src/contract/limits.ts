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
  /**
   * A name people give — their own, a group's, a passkey's — once trimmed (spec §5: at most 50). Its
   * fields count toward it and say when it is passed, rather than cutting pasted text short.
   */
  name: 50,
  /** What a name's request may carry before the server trims it and checks it against `name`. */
  nameInput: 1000,
} as const;

/**
 * A value's length as the server counts it against these limits: characters (code points, not UTF-16
 * units) of its NFC form, trimmed. A field's counter and check use it, so they agree with the server.
 */
export function charCount(value: string): number {
  return Array.from(value.normalize('NFC').trim()).length;
}
