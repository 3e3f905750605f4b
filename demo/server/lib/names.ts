import { charCount, LIMITS } from '../../../src/contract/limits';

/** Names people give (a user's, a group's, a passkey's): spec §5 allows 1–50 characters. */
export const NAME_MAX = LIMITS.name;

// C0 and C1 control characters; bidi and other format characters are allowed and rendered as text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A name as stored: NFC, trimmed, 1–`max` characters (code points), no control characters; otherwise
 * what is wrong with it.
 */
export function cleanName(
  value: string,
  max: number = NAME_MAX,
): { name: string } | { problem: 'length' | 'control'; message: string } {
  const name = value.normalize('NFC').trim();
  const length = charCount(name);
  if (length < 1 || length > max)
    return { problem: 'length', message: `name must have 1 to ${max} characters` };
  if (CONTROL.test(name)) return { problem: 'control', message: 'name must not contain control characters' };
  return { name };
}
