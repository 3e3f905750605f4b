import { LIMITS } from '../../contract/limits';

/** The WHATWG "valid e-mail address" rule (what `<input type="email">` accepts). */
const VALID_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** A valid address (WHATWG) no longer than the server accepts. */
export function isValidEmail(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length <= LIMITS.email && VALID_EMAIL.test(trimmed);
}
