import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Repositories } from '../db/repositories';
import type { TeamDomainsTable } from '../db/schema';
import { domainLostMail } from '../mail/compose';
import type { Clock } from './clock';
import type { DomainChecker } from './dns';
import type { Mailer } from './mailer';
import { mailOwners } from './notify';
import {
  DOMAIN_PENDING_MS,
  DOMAIN_RECHECK_MS,
  DOMAIN_RECORD_PREFIX,
  DOMAIN_RECORD_VALUE_PREFIX,
} from '../../../src/contract/domains';

/** How often a node looks for domains due, and how many it looks up each time. */
const ROUND_MS = 3600_000;
const ROUND_SIZE = 100;
const PARALLEL_LOOKUPS = 4;

/**
 * The daily lookup of every team's domains: a pending one verifies itself once its record appears, a
 * verified one whose record goes missing becomes unverified after the grace period (db/domains.ts
 * `checked`, the same rule as the admin's Verify), and then the team's owners are mailed. Every node
 * runs it hourly; each due domain is claimed by one conditional update, so it is looked up once
 * whatever the number of nodes. A DNS server that does not answer changes nothing.
 */
export class DomainWatch {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      config: Config;
      repos: Repositories;
      clock: Clock;
      checkDomain: DomainChecker;
      mailer: Mailer;
      log: FastifyBaseLogger;
    },
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.round(), ROUND_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One round: the domains due now, looked up one after another. How many this node looked up. */
  async round(): Promise<number> {
    const { repos, clock, checkDomain, log } = this.deps;
    let looked = 0;
    try {
      const now = clock.now();
      const due = await repos.domains.due(now - DOMAIN_RECHECK_MS, now - DOMAIN_PENDING_MS, ROUND_SIZE);
      // A few lookups at a time: one DNS server that does not answer costs its timeout, not the round's.
      const lookUp = async () => {
        for (let row = due.shift(); row; row = due.shift()) {
          if (!(await repos.domains.claim(row, clock.now()))) continue;
          looked++;
          const problem = await checkDomain(row.domain, row.token);
          const checked = await repos.domains.checked(row, problem, null, clock.now());
          if (checked && checked !== 'taken' && checked.lost) await this.tellOwners(checked.row);
        }
      };
      await Promise.all(Array.from({ length: PARALLEL_LOOKUPS }, lookUp));
    } catch (error) {
      log.error({ err: error }, 'the daily domain check failed');
    }
    return looked;
  }

  /** Mails each owner of the domain's team, in their language, that the domain is unverified. */
  async tellOwners(row: TeamDomainsTable): Promise<void> {
    const record = `${DOMAIN_RECORD_PREFIX}${row.domain} TXT "${DOMAIN_RECORD_VALUE_PREFIX}${row.token}"`;
    await mailOwners(this.deps, row.team_id, (owner) =>
      domainLostMail({ ...owner, domain: row.domain, record }),
    );
  }
}
