import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TeamDomainsTable } from '../db/schema';
import { teamActorOf } from '../plugins/auth';
import {
  DOMAIN_PENDING_MS,
  DOMAIN_RECORD_PREFIX,
  DOMAIN_RECORD_VALUE_PREFIX,
  normalDomain,
} from '../../../src/contract/domains';
import {
  addTeamDomainSchema,
  autoJoinTeamDomainSchema,
  changeTeamDomainSchema,
  deleteTeamDomainSchema,
  listTeamDomainsSchema,
  verifyTeamDomainSchema,
  type TeamDomain,
} from '../../../src/contract/schemas/domains';

const PUBLIC_MAIL_DOMAINS = new Set(
  readFileSync(join(import.meta.dirname, '../lib/public-mail-domains.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#')),
);

const NOT_FOUND = { message: 'no such domain', code: 'notFound' } as const;
const TAKEN = { message: 'this domain is already taken', code: 'domainTaken', field: 'domain' } as const;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The domain as its admins see it, with the record to publish. A pending domain still unproven after
 * its time shows as failed; proving it later still makes it verified.
 */
function teamDomainView(row: TeamDomainsTable, now: number): TeamDomain {
  const expired = row.state === 'pending' && now >= row.created_at + DOMAIN_PENDING_MS;
  return {
    domain: row.domain,
    state: expired ? 'failed' : row.state,
    recordName: `${DOMAIN_RECORD_PREFIX}${row.domain}`,
    recordValue: `${DOMAIN_RECORD_VALUE_PREFIX}${row.token}`,
    createdAt: new Date(row.created_at).toISOString(),
    verifiedAt: iso(row.verified_at),
    checkedAt: iso(row.checked_at),
    lastProblem: row.last_problem,
    missingSince: iso(row.missing_since),
    expiresAt: row.state === 'pending' ? iso(row.created_at + DOMAIN_PENDING_MS) : null,
    connectionId: row.connection_id,
    requireSso: row.require_sso === 1,
    autoJoin: row.auto_join === 1,
  };
}

/**
 * A team's e-mail domains, for its owners and admins: list, add (a pending domain and the DNS record
 * that would prove it), verify (look the record up now), remove. Any team may claim a domain; the first
 * to prove it has it (db/domains.ts). A public mail service's domain is never anyone's. Every lookup goes through the resolver of DNS_SERVERS, with a timeout.
 */
export const domainRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, checkDomain, domainWatch } = app.services;
  // Its IT contact may do it too, through a setup link an owner sent (docs/decisions/setup-links.md).
  const admin = { auth: 'bearer', role: 'admin', setup: true } as const;

  /** The team's verified domain the route names, or undefined with 404 or 409 `notVerified` sent. */
  async function verifiedDomain(
    request: FastifyRequest<{ Params: { domain: string } }>,
    reply: FastifyReply,
  ) {
    const { teamId, actor } = teamActorOf(request);
    const domain = normalDomain(request.params.domain);
    const row = domain ? await repos.domains.find(teamId, domain) : undefined;
    if (!row) {
      await reply.code(404).send(NOT_FOUND);
      return undefined;
    }
    if (row.state !== 'verified') {
      await reply.code(409).send({ message: 'verify the domain first', code: 'notVerified' });
      return undefined;
    }
    return { teamId, actor, row };
  }

  app.get('/api/team/domains', { config: admin, schema: listTeamDomainsSchema }, async (request) => {
    const rows = await repos.domains.list(teamActorOf(request).teamId);
    return { domains: rows.map((row) => teamDomainView(row, clock.now())) };
  });

  app.post(
    '/api/team/domains',
    { config: { ...admin, body: 'json' }, schema: addTeamDomainSchema },
    async (request, reply) => {
      const { teamId, actor } = teamActorOf(request);
      const domain = normalDomain(request.body.domain);
      if (!domain)
        return reply.code(400).send({ message: 'not a domain name', code: 'invalidDomain', field: 'domain' });
      if (PUBLIC_MAIL_DOMAINS.has(domain))
        return reply.code(400).send({
          message: 'a public mail service cannot be a team’s domain',
          code: 'publicDomain',
          field: 'domain',
        });
      const token = randomBytes(16).toString('hex');
      const row = await repos.domains.add(teamId, domain, token, actor, clock.now());
      // Whose it is stays unsaid: the same answer for this team's own claim and another's verified one.
      if (!row) return reply.code(409).send(TAKEN);
      return reply.code(201).send(teamDomainView(row, clock.now()));
    },
  );

  app.post(
    '/api/team/domains/:domain/verify',
    { config: admin, schema: verifyTeamDomainSchema },
    async (request, reply) => {
      const { teamId, actor } = teamActorOf(request);
      const domain = normalDomain(request.params.domain);
      const row = domain ? await repos.domains.find(teamId, domain) : undefined;
      if (!row) return reply.code(404).send(NOT_FOUND);
      const problem = await checkDomain(row.domain, row.token);
      const checked = await repos.domains.checked(row, problem, actor, clock.now());
      if (!checked) return reply.code(404).send(NOT_FOUND);
      if (checked === 'taken') return reply.code(409).send(TAKEN);
      if (checked.lost) void domainWatch.tellOwners(checked.row);
      return teamDomainView(checked.row, clock.now());
    },
  );

  // How a verified domain's addresses sign in: through which of the team's connections, and whether
  // only so. Routing starts once the connection is on (db/domains.ts `routes`).
  app.patch(
    '/api/team/domains/:domain',
    { config: { ...admin, body: 'json' }, schema: changeTeamDomainSchema },
    async (request, reply) => {
      const found = await verifiedDomain(request, reply);
      if (!found) return reply;
      const { teamId, actor, row } = found;
      const { connectionId, requireSso } = request.body;
      const connection = connectionId ? await repos.connections.ofTeam(teamId, connectionId) : null;
      if (connectionId && !connection)
        return reply
          .code(400)
          .send({ message: 'no such connection', code: 'unknownConnection', field: 'connectionId' });
      if (requireSso && !connection)
        return reply.code(400).send({
          message: 'choose the connection to require',
          code: 'noConnection',
          field: 'connectionId',
        });
      const change = { connectionId, requireSso, connectionName: connection?.name ?? null };
      const saved = await repos.domains.setSignIn(row, change, actor, clock.now());
      if (!saved) return reply.code(404).send(NOT_FOUND);
      return teamDomainView(saved, clock.now());
    },
  );

  // Who may join without approval is the team's own decision: its admins', not an IT contact's.
  app.put(
    '/api/team/domains/:domain/auto-join',
    { config: { auth: 'bearer', role: 'admin', body: 'json' }, schema: autoJoinTeamDomainSchema },
    async (request, reply) => {
      const found = await verifiedDomain(request, reply);
      if (!found) return reply;
      const { actor, row } = found;
      const saved = await repos.domains.setAutoJoin(row, request.body.autoJoin, actor, clock.now());
      if (!saved) return reply.code(404).send(NOT_FOUND);
      return teamDomainView(saved, clock.now());
    },
  );

  app.delete(
    '/api/team/domains/:domain',
    { config: admin, schema: deleteTeamDomainSchema },
    async (request, reply) => {
      const { teamId, actor } = teamActorOf(request);
      const domain = normalDomain(request.params.domain);
      if (!domain || !(await repos.domains.remove(teamId, domain, actor, clock.now())))
        return reply.code(404).send(NOT_FOUND);
      return reply.code(204).send();
    },
  );
};
