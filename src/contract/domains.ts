/**
 * A team's e-mail domains (the company's own, proven by a DNS record before any sign-in is routed by
 * it): the rule for what a domain is, and the record that proves it. Shared by the team screens and
 * the server; no DOM, no React.
 */

/** Where the proof goes: a TXT record at `_acct-challenge.<domain>`. */
export const DOMAIN_RECORD_PREFIX = '_acct-challenge.';
/** What the record holds: this prefix, then the domain's token. */
export const DOMAIN_RECORD_VALUE_PREFIX = 'acct-verification=';

/**
 * A domain's states: not yet proven, proven, never proven within its time (shown, not stored), or
 * proven and then lost (its record missing for longer than the grace period).
 */
export const DOMAIN_STATES = ['pending', 'verified', 'failed', 'unverified'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/** What a lookup of the record found wrong: no such record (or not ours), or no answer at all. */
export const DOMAIN_CHECK_PROBLEMS = ['recordNotFound', 'lookupFailed'] as const;
export type DomainCheckProblem = (typeof DOMAIN_CHECK_PROBLEMS)[number];

/** A pending domain fails when it is still unproven this long after it was added. */
export const DOMAIN_PENDING_MS = 7 * 24 * 3600_000;

/** How often the server looks every domain's record up again by itself. */
export const DOMAIN_RECHECK_MS = 24 * 3600_000;
/**
 * How long a verified domain's record may be missing before the domain becomes unverified: long enough
 * for a DNS provider's move or a mistake to be put right, short enough that a domain sold or lost stops
 * routing sign-ins within days.
 */
export const DOMAIN_GRACE_MS = 3 * 24 * 3600_000;

/** Why a domain is refused when it is added. */
export type DomainProblem = 'invalidDomain' | 'publicDomain' | 'domainTaken';

/** The longest name DNS carries (RFC 1035 §2.3.4, without the root's dot). */
export const DOMAIN_MAX_LENGTH = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The domain as it is kept and compared — lower case, international names in their ASCII form
 * (`bücher.example` → `xn--bcher-kva.example`, by the platform's URL parser), without a final dot — or
 * null when the text is not a domain a company can receive mail at: no scheme, path, port, address or
 * user, at least two labels, and a top-level label that is not a number.
 */
export function normalDomain(input: string): string | null {
  const text = input.trim().toLowerCase().replace(/\.$/, '');
  if (!text || /[\s/\\:@?#[\]%]/.test(text)) return null;
  let host: string;
  try {
    host = new URL(`http://${text}/`).hostname;
  } catch {
    return null;
  }
  const labels = host.split('.');
  if (host.length > DOMAIN_MAX_LENGTH || labels.length < 2) return null;
  if (!labels.every((label) => LABEL.test(label))) return null;
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return null;
  return host;
}
