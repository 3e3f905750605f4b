import type { Kysely, Transaction } from 'kysely';
import type { AuditAction } from '../../../src/contract/team-rules';
import { DOMAIN_GRACE_MS, type DomainCheckProblem } from '../../../src/contract/domains';
import { recordAudit, type Actor } from './audit';
import { isUniqueViolation } from './unique';
import type { Database, TeamDomainsTable } from './schema';

/**
 * A team's e-mail domains. Any team may claim a domain and try to prove it; the first to prove it has
 * it, and the others' claims go (the table's partial unique index keeps a second verified row out, also
 * when two nodes prove it at once). A verified domain cannot be claimed by another team until it is
 * removed or unverified. Adding, proving and removing are in the team's audit trail, each in the
 * transaction of the change.
 */
export function domainsRepository(db: Kysely<Database>) {
  const audit = (
    trx: Transaction<Database>,
    row: Pick<TeamDomainsTable, 'team_id' | 'domain'>,
    action: AuditAction,
    actor: Actor | null,
    now: number,
  ) => recordAudit(trx, { teamId: row.team_id, actor, action, target: row.domain, now });

  /** Verified domains joined to the enabled connection of their own team they sign in through. */
  const routed = () =>
    db
      .selectFrom('team_domains')
      .innerJoin('team_connections', 'team_connections.id', 'team_domains.connection_id')
      .whereRef('team_connections.team_id', '=', 'team_domains.team_id')
      .where('team_domains.state', '=', 'verified')
      .where('team_connections.enabled', '=', 1);

  /** The team that has the domain verified, if any. */
  const verifiedHolder = (trx: Transaction<Database>, domain: string) =>
    trx
      .selectFrom('team_domains')
      .select('team_id')
      .where('domain', '=', domain)
      .where('state', '=', 'verified')
      .executeTakeFirst();

  /**
   * `checked` in one transaction: undefined when the team no longer holds it, `taken` when another team
   * has it verified (this team's claim stays as it is, to be removed).
   */
  function checkedIn(
    row: TeamDomainsTable,
    problem: DomainCheckProblem | null,
    actor: Actor | null,
    now: number,
  ) {
    return db.transaction().execute(async (trx) => {
      let changes: Partial<TeamDomainsTable> = { checked_at: now, last_problem: problem };
      let action: AuditAction | null = null;
      if (problem === null) {
        changes = { ...changes, missing_since: null };
        if (row.state !== 'verified') {
          if (await verifiedHolder(trx, row.domain)) return 'taken' as const;
          changes = { ...changes, state: 'verified', verified_at: now };
          action = 'domain.verified';
        }
      } else if (problem === 'recordNotFound' && row.state === 'verified') {
        const since = row.missing_since ?? now;
        changes = { ...changes, missing_since: since };
        if (now - since >= DOMAIN_GRACE_MS) {
          changes = { ...changes, state: 'unverified' };
          action = 'domain.unverified';
        }
      }
      const result = await trx
        .updateTable('team_domains')
        .set(changes)
        .where('domain', '=', row.domain)
        .where('team_id', '=', row.team_id)
        .executeTakeFirst();
      if (!result.numUpdatedRows) return undefined;
      if (action) await audit(trx, row, action, actor, now);
      return { row: { ...row, ...changes }, lost: action === 'domain.unverified' };
    });
  }

  /** A setting of the team's domain changed, audited in the same transaction; undefined when gone. */
  const changed = (
    row: TeamDomainsTable,
    changes: Partial<TeamDomainsTable>,
    entry: { action: AuditAction; detail: Record<string, unknown> },
    actor: Actor,
    now: number,
  ) =>
    db.transaction().execute(async (trx): Promise<TeamDomainsTable | undefined> => {
      const result = await trx
        .updateTable('team_domains')
        .set(changes)
        .where('domain', '=', row.domain)
        .where('team_id', '=', row.team_id)
        .executeTakeFirst();
      if (!result.numUpdatedRows) return undefined;
      await recordAudit(trx, { teamId: row.team_id, actor, target: row.domain, now, ...entry });
      return { ...row, ...changes };
    });

  return {
    /** The team's domains, by name. */
    list(teamId: string): Promise<TeamDomainsTable[]> {
      return db
        .selectFrom('team_domains')
        .selectAll()
        .where('team_id', '=', teamId)
        .orderBy('domain')
        .execute();
    },

    /** The domain if the team holds it. */
    find(teamId: string, domain: string): Promise<TeamDomainsTable | undefined> {
      return db
        .selectFrom('team_domains')
        .selectAll()
        .where('domain', '=', domain)
        .where('team_id', '=', teamId)
        .executeTakeFirst();
    },

    /**
     * Adds a pending claim of the team's; undefined when the team claims it already, or another team
     * has it verified.
     */
    add(teamId: string, domain: string, token: string, actor: Actor, now: number) {
      return db.transaction().execute(async (trx): Promise<TeamDomainsTable | undefined> => {
        if (await verifiedHolder(trx, domain)) return undefined;
        const row: TeamDomainsTable = {
          domain,
          team_id: teamId,
          token,
          state: 'pending',
          created_at: now,
          verified_at: null,
          checked_at: null,
          last_problem: null,
          missing_since: null,
          connection_id: null,
          require_sso: 0,
          auto_join: 0,
        };
        const result = await trx
          .insertInto('team_domains')
          .values(row)
          .onConflict((conflict) => conflict.columns(['domain', 'team_id']).doNothing())
          .executeTakeFirst();
        if (!result.numInsertedOrUpdatedRows) return undefined;
        await audit(trx, row, 'domain.added', actor, now);
        return row;
      });
    },

    /**
     * What a lookup found, by one rule for the admin's Verify and the daily check alike:
     * - the record: the domain is verified (audited when it was not), and nothing is missing;
     * - no record for a verified domain: missing since the first such lookup, and unverified (audited)
     *   once that is longer ago than the grace period — `lost` then tells the caller to tell the owners;
     * - otherwise (pending, or no answer from DNS): only when it was checked and what went wrong.
     * Undefined when the team no longer holds the domain.
     */
    async checked(
      row: TeamDomainsTable,
      problem: DomainCheckProblem | null,
      actor: Actor | null,
      now: number,
    ) {
      try {
        return await checkedIn(row, problem, actor, now);
      } catch (error) {
        // Another team proved it in the same moment, on another node: theirs.
        if (isUniqueViolation(error)) return 'taken' as const;
        throw error;
      }
    },

    /**
     * Domains whose record is due for its daily lookup (checked before `before`, or never): verified and
     * unverified ones, and pending ones still within their time. The oldest first, `limit` at most.
     */
    due(before: number, pendingSince: number, limit: number): Promise<TeamDomainsTable[]> {
      return db
        .selectFrom('team_domains')
        .selectAll()
        .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', before)]))
        .where((eb) => eb.or([eb('state', '!=', 'pending'), eb('created_at', '>', pendingSince)]))
        .orderBy('checked_at')
        .orderBy('domain')
        .limit(limit)
        .execute();
    },

    /**
     * Takes a due domain for this node's lookup: one conditional update, so of several nodes checking
     * at once only one looks it up. False when another node took it first.
     */
    async claim(row: TeamDomainsTable, now: number): Promise<boolean> {
      const result = await db
        .updateTable('team_domains')
        .set({ checked_at: now })
        .where('domain', '=', row.domain)
        .where((eb) =>
          row.checked_at === null ? eb('checked_at', 'is', null) : eb('checked_at', '=', row.checked_at),
        )
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * How the domain's addresses sign in: through `connectionId` (null: not through single sign-on),
     * and only so when `requireSso`. Audited; undefined when the team no longer holds it.
     */
    setSignIn(
      row: TeamDomainsTable,
      change: { connectionId: string | null; requireSso: boolean; connectionName: string | null },
      actor: Actor,
      now: number,
    ) {
      const changes = { connection_id: change.connectionId, require_sso: change.requireSso ? 1 : 0 };
      const detail = { connection: change.connectionName, required: change.requireSso };
      return changed(row, changes, { action: 'domain.signIn', detail }, actor, now);
    },

    /**
     * The team's domains whose addresses sign in through an enabled connection: the domain, that
     * connection, and whether it is required. Only verified domains route anyone.
     */
    routes(teamId: string, domain?: string) {
      let query = routed()
        .select(['team_domains.domain', 'team_domains.require_sso', 'team_connections.id as connection_id'])
        .where('team_domains.team_id', '=', teamId)
        .orderBy('team_domains.domain');
      if (domain !== undefined) query = query.where('team_domains.domain', '=', domain);
      return query.execute();
    },

    /** The team whose verified domain this is and signs in through an enabled connection, if any. */
    async teamRoutedBy(domain: string): Promise<string | undefined> {
      const row = await routed()
        .innerJoin('teams', 'teams.id', 'team_domains.team_id')
        .select('teams.name')
        .where('team_domains.domain', '=', domain)
        .where('teams.disabled', '=', 0)
        .executeTakeFirst();
      return row?.name;
    },

    /**
     * The team a person at this domain may ask to join: the one that has it verified, when the domain
     * does not sign in through an enabled connection of that team (then single sign-on is the way in)
     * and the team is on. With whether its people join without an admin's approval.
     */
    joinableBy(domain: string) {
      return db
        .selectFrom('team_domains')
        .innerJoin('teams', 'teams.id', 'team_domains.team_id')
        .leftJoin('team_connections', (join) =>
          join
            .onRef('team_connections.id', '=', 'team_domains.connection_id')
            .onRef('team_connections.team_id', '=', 'team_domains.team_id')
            .on('team_connections.enabled', '=', 1),
        )
        .select(['teams.id', 'teams.name', 'teams.display_name', 'team_domains.auto_join'])
        .where('team_domains.domain', '=', domain)
        .where('team_domains.state', '=', 'verified')
        .where('teams.disabled', '=', 0)
        .where('team_connections.id', 'is', null)
        .executeTakeFirst();
    },

    /** Whether a verified requester at the domain is invited without approval (audited). */
    setAutoJoin(row: TeamDomainsTable, autoJoin: boolean, actor: Actor, now: number) {
      const entry = { action: 'domain.autoJoin', detail: { automatic: autoJoin } } as const;
      return changed(row, { auto_join: autoJoin ? 1 : 0 }, entry, actor, now);
    },

    /** Removes the team's domain (audited); false when the team does not hold it. */
    remove(teamId: string, domain: string, actor: Actor, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('team_domains')
          .where('domain', '=', domain)
          .where('team_id', '=', teamId)
          .executeTakeFirst();
        if (!result.numDeletedRows) return false;
        await audit(trx, { team_id: teamId, domain }, 'domain.removed', actor, now);
        return true;
      });
    },
  };
}
