import { Resolver } from 'node:dns/promises';
import {
  DOMAIN_RECORD_PREFIX,
  DOMAIN_RECORD_VALUE_PREFIX,
  type DomainCheckProblem,
} from '../../../src/contract/domains';

/** How long one question may wait for its answer, and how often it is asked before giving up. */
const TIMEOUT_MS = 2_000;
const TRIES = 2;

/** Answers that mean the name has no such record (as opposed to no answer at all). */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * Looks up the TXT record that proves a domain is the team's, through the servers DNS_SERVERS names
 * (`host:port`, as Node's resolver takes them) or the system's. Null when the record holds the
 * domain's token; otherwise what went wrong, told apart so a screen can say "not found yet" or "your
 * DNS did not answer".
 */
export function domainChecker(servers: readonly string[]) {
  return async (domain: string, token: string): Promise<DomainCheckProblem | null> => {
    const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
    if (servers.length) resolver.setServers([...servers]);
    let records: string[][];
    try {
      records = await resolver.resolveTxt(`${DOMAIN_RECORD_PREFIX}${domain}`);
    } catch (error) {
      return NO_RECORD.has((error as NodeJS.ErrnoException).code ?? '') ? 'recordNotFound' : 'lookupFailed';
    }
    // A TXT record may come in several strings of up to 255 bytes: they are one value.
    const expected = `${DOMAIN_RECORD_VALUE_PREFIX}${token}`;
    return records.some((chunks) => chunks.join('') === expected) ? null : 'recordNotFound';
  };
}

export type DomainChecker = ReturnType<typeof domainChecker>;
