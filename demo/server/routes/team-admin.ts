import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditEventsTable, Team } from '../db/schema';
import { INVALID_RANGE, rangeOf } from '../lib/team-events';
import type { ProviderKind } from '../db/schema';
import { auth0DisplayName } from '../lib/external';
import { adminOf, clientOf } from '../plugins/auth';
import { errors } from '../../../src/contract/schemas/common';
import { dismissChecklistSchema } from '../../../src/contract/schemas/sign-up';
import {
  AuditList,
  AuditQuery,
  LoginOptionsBody,
  SeatLimitBody,
  Storage,
  StorageBody,
  TeamAdmin,
  type AuditAction,
  type AuditEvent,
} from '../../../src/contract/schemas/team';

/** The event as the team screens show it (schemas/team.ts `AuditEvent`). */
function auditView(row: AuditEventsTable): AuditEvent {
  return {
    id: row.id,
    at: new Date(row.created_at).toISOString(),
    actor:
      row.actor_id !== null
        ? { id: row.actor_id, name: row.actor_name ?? '', email: row.actor_email ?? '' }
        : null,
    action: row.action as AuditAction,
    target: row.target,
    detail: JSON.parse(row.detail) as AuditEvent['detail'],
    address: row.address,
    requestId: row.request_id,
  };
}

const PROVIDERS: ProviderKind[] = ['google', 'azure', 'auth0', 'apple'];
/** The latest audit events the team screen shows. */
const AUDIT_DEFAULT = 10;

/** The team as its admins see it (schemas/team.ts `TeamAdmin`). */
export function teamAdminView(
  team: Team,
  pending: number,
  configured: ReadonlySet<string>,
  callerIsOwner: boolean,
  withoutTwoStep: number,
): TeamAdmin {
  return {
    id: team.id,
    name: team.name,
    displayName: team.display_name,
    seats: {
      used: team.member_count + pending,
      limit: team.seat_limit,
      members: team.member_count,
      pending,
    },
    storage: { usedBytes: team.storage_used_bytes, limitBytes: team.storage_limit_bytes },
    loginOptions: {
      local: team.local_enabled === 1,
      google: team.google_enabled === 1,
      azure: team.azure_enabled === 1,
      auth0: team.auth0_enabled === 1,
      apple: team.apple_enabled === 1,
      requireTwoStep: team.require_two_step === 1,
      passkeys: team.passkeys_enabled === 1,
      emailCode: team.email_code_enabled === 1,
    },
    configured: Object.fromEntries(
      PROVIDERS.map((kind) => [kind, configured.has(kind)]),
    ) as TeamAdmin['configured'],
    auth0DisplayName: auth0DisplayName(team),
    support: { name: team.manager_name, email: team.manager_email, phone: team.manager_phone },
    callerIsOwner,
    membersWithoutTwoStep: withoutTwoStep,
    ...(team.checklist === 1 ? { checklist: true as const } : {}),
  };
}

/**
 * The team's own settings, for its admins: `GET /api/team` (seats, storage, sign-in methods, support),
 * the seat limit (owners only) and the sign-in methods; and the storage a suite app reports with the
 * team's API credential (`PUT /api/team/storage`, client credentials).
 */
export const teamAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock } = app.services;

  const view = async (teamId: string, owner: boolean) => {
    const { team, pending, configured, withoutTwoStep } = await repos.teams.adminView(teamId, clock.now());
    return teamAdminView(team, pending, configured, owner, withoutTwoStep);
  };

  app.get(
    '/api/team',
    {
      config: { auth: 'bearer', role: 'admin' },
      schema: { response: { 200: TeamAdmin, ...errors(400, 401, 403, 500) } },
    },
    async (request) => {
      const { caller, actor } = adminOf(request);
      return view(caller.user.team_id, actor.owner);
    },
  );

  app.delete(
    '/api/team/checklist',
    { config: { auth: 'bearer', role: 'admin' }, schema: dismissChecklistSchema },
    async (request, reply) => {
      await repos.teams.dismissChecklist(adminOf(request).caller.user.team_id);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/team/seat-limit',
    {
      config: { body: 'json', auth: 'bearer', role: 'owner', invalid: { limit: 'invalidLimit' } },
      schema: {
        body: SeatLimitBody,
        response: { 200: TeamAdmin, ...errors(400, 401, 403, 409, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const outcome = await repos.teams.setSeatLimit(
        caller.user.team_id,
        request.body.limit,
        actor,
        clock.now(),
      );
      if (!outcome.ok) {
        return reply.code(409).send({
          message: `the team uses ${outcome.used} seats: the limit cannot be lower`,
          code: 'belowCount',
          field: 'limit',
        });
      }
      return view(caller.user.team_id, actor.owner);
    },
  );

  app.patch(
    '/api/team/login-options',
    {
      config: { body: 'json', auth: 'bearer', role: 'admin' },
      schema: {
        body: LoginOptionsBody,
        response: { 200: TeamAdmin, ...errors(400, 401, 403, 409, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const outcome = await repos.teams.setLoginOptions(
        caller.user.team_id,
        request.body,
        actor,
        clock.now(),
      );
      if (!outcome.ok && outcome.reason === 'lastMethod') {
        return reply
          .code(409)
          .send({ message: 'the team must keep at least one sign-in method', code: 'lastMethod' });
      }
      if (!outcome.ok) {
        return reply.code(400).send({
          message: `this team has no ${outcome.method} sign-in configured`,
          code: 'notConfigured',
          field: outcome.method,
        });
      }
      return view(caller.user.team_id, actor.owner);
    },
  );

  app.get(
    '/api/team/audit',
    {
      config: {
        auth: 'bearer',
        role: 'admin',
        invalid: {
          limit: 'invalidLimit',
          before: 'invalidCursor',
          kind: 'invalidKind',
          from: 'invalidRange',
          to: 'invalidRange',
        },
      },
      schema: { querystring: AuditQuery, response: { 200: AuditList, ...errors(400, 401, 403, 500) } },
    },
    async (request, reply) => {
      const { caller } = adminOf(request);
      const limit = request.query.limit === undefined ? AUDIT_DEFAULT : Number(request.query.limit);
      const { before, kind, actor } = request.query;
      const range = rangeOf(request.query.from, request.query.to);
      if (!range) return reply.code(400).send(INVALID_RANGE);
      const page = await repos.audit.page(caller.user.team_id, limit, { before, kind, actor, ...range });
      return { next: page.next, events: page.events.map(auditView) };
    },
  );

  app.put(
    '/api/team/storage',
    {
      config: { body: 'json', auth: 'client', scope: 'team.storage' },
      schema: { body: StorageBody, response: { 200: Storage, ...errors(400, 401, 403, 413, 415, 500) } },
    },
    async (request) => {
      const client = clientOf(request);
      return repos.teams.setStorageUsed(client.teamId, request.body.usedBytes, client.clientId, clock.now());
    },
  );
};
