import { createHash } from 'node:crypto';
import { fetchGuarded, OutboundError } from './outbound';

/**
 * Whether a new password appears in a known breach, asked of the Pwned Passwords range API by
 * k-anonymity: only the first five hex characters of the password's SHA-1 leave the server, the answer
 * lists every breached hash with that prefix, and the rest of the hash is compared here. With
 * `Add-Padding: true` the service pads every answer with made-up suffixes of count 0, so the answer's
 * size does not tell which prefix was asked either (docs/decisions/breached-passwords.md).
 */

/** The check's answer: `unavailable` when the service gave no usable answer (the check fails open). */
export type BreachAnswer = { breached: boolean } | { unavailable: string };

export type BreachCheck = (password: string) => Promise<BreachAnswer>;

/** A padded answer holds 800–1,000 lines of 35 + ~8 characters: well under this. */
const MAX_BYTES = 256 * 1024;
/** The check waits at most this long (a person is waiting on the form). */
export const BREACH_CHECK_TIMEOUT_MS = 2_000;

/** The SHA-1 of a password in upper-case hex, split into what is sent (5) and what is kept (35). */
export function rangeParts(password: string): { prefix: string; suffix: string } {
  const hash = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
  return { prefix: hash.slice(0, 5), suffix: hash.slice(5) };
}

/**
 * Whether `suffix` is among an answer's lines (`SUFFIX:COUNT`), padding (count 0) left out. Null when
 * the body is not such a list: a service that answers something else is not trusted to have said no.
 */
export function suffixBreached(body: string, suffix: string): boolean | null {
  let found = false;
  for (const line of body.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const match = /^([0-9A-Fa-f]{35}):(\d+)$/.exec(trimmed);
    if (!match) return null;
    if (match[1]!.toUpperCase() === suffix && Number(match[2]) > 0) found = true;
  }
  return found;
}

/**
 * The check against the range API at `baseUrl` (ending in `/`). The address is the operator's, not a
 * user's: any address it resolves to may be reached (the demo's stand-in is on loopback), plain http
 * only when the configuration allowed it (a loopback address). No redirect is followed.
 */
export function breachCheck(baseUrl: string, timeoutMs = BREACH_CHECK_TIMEOUT_MS): BreachCheck {
  return async (password) => {
    const { prefix, suffix } = rangeParts(password);
    try {
      const answer = await fetchGuarded(`${baseUrl}${prefix}`, {
        allowHttp: baseUrl.startsWith('http:'),
        addressAllowed: () => true,
        timeoutMs,
        maxBytes: MAX_BYTES,
        maxRedirects: 0,
        accept: 'text/plain',
        headers: { 'add-padding': 'true' },
      });
      const breached = suffixBreached(answer.body.toString('utf8'), suffix);
      if (breached === null) return { unavailable: 'the answer is not a list of hash suffixes' };
      return { breached };
    } catch (error) {
      if (error instanceof OutboundError) return { unavailable: `${error.problem}: ${error.message}` };
      throw error;
    }
  };
}
