import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { DirectoryCaller } from '../db/directories';
import { directoryActor, type ScimOutcome, type ScimUserFields } from '../db/scim';
import { randomToken, sha256 } from '../lib/crypto';
import { answerLanguage } from '../lib/language';
import { sendInBackground } from '../lib/notify';
import {
  applyPatch,
  asProblem,
  configureScimmy,
  discovery,
  excludesMembers,
  groupConditions,
  groupFields,
  groupFromBody,
  groupResource,
  listResponse,
  paging,
  SCIM_PREFIX,
  scimError,
  ScimProblem,
  userConditions,
  userFields,
  userFromBody,
  userResource,
} from '../lib/scim';
import { inviteMail, mailBrand } from '../mail/compose';
import { directoryOf } from '../plugins/auth';
import { INVITATION_TTL_MS } from '../../../src/contract/team-rules';
import {
  scimChangeGroupSchema,
  scimChangeUserSchema,
  scimCreateGroupSchema,
  scimCreateUserSchema,
  scimDeleteSchema,
  scimDiscoveryOneSchema,
  scimDiscoverySchema,
  scimGetGroupSchema,
  scimGetUserSchema,
  scimListGroupsSchema,
  scimListUsersSchema,
} from '../../../src/contract/schemas/scim';

const SCIM_TYPE = 'application/scim+json; charset=utf-8';

/** A repository's refusal as SCIM answers it (docs/decisions/scim.md). */
function refused(outcome: Extract<ScimOutcome, { ok: false }>): ScimProblem {
  switch (outcome.reason) {
    case 'notFound':
      return new ScimProblem(404, 'no such resource');
    case 'exists':
      return new ScimProblem(409, 'a resource with this userName or displayName exists', 'uniqueness');
    case 'externalIdTaken':
      return new ScimProblem(409, 'a resource with this externalId exists', 'uniqueness');
    case 'seatLimit':
      return new ScimProblem(403, 'the team has no free seat: an owner can raise its seat limit');
    case 'memberNotFound':
      return new ScimProblem(400, 'a member named is not a member of the team', 'invalidValue');
    case 'lastOwner':
      return new ScimProblem(403, 'the team must keep an owner who is not disabled');
    case 'self':
    case 'notOwner':
      return new ScimProblem(403, 'the team does not allow this change');
  }
}

/** The id of a made or changed resource, or its refusal thrown. */
function idOf(outcome: ScimOutcome): string {
  if (!outcome.ok) throw refused(outcome);
  return outcome.id;
}

/**
 * SCIM 2.0 (RFC 7643, RFC 7644) for a team's directories, at /scim/v2 with a directory's token
 * (docs/decisions/scim.md): discovery from scimmy's definitions; Users as the team's members
 * (userName is the address, `active` enables and disables), Groups as its groups. scimmy reads the
 * bodies, parses the filters and applies PATCH; the repository (db/scim.ts) holds every query. Every
 * answer is `application/scim+json`, every refusal a SCIM error body — those of the plugins too.
 * Registered under SCIM_PREFIX (its own not-found answer and error handler are the prefix's).
 */
export const scimRoutes: FastifyPluginAsyncTypebox = async (scim) => {
  const { repos, clock, config } = scim.services;
  const base = `${config.publicUrl}${SCIM_PREFIX}`;
  configureScimmy(base);
  const read = { auth: 'directory' } as const;
  const write = { auth: 'directory', body: 'scim' } as const;

  // The plugins' own refusals (a body type, a NUL, anti-forgery) as SCIM errors.
  scim.addHook('preSerialization', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'object' || payload === null) return payload;
    if ('schemas' in payload) return payload;
    const message = (payload as { message?: unknown }).message;
    return scimError(reply.statusCode, typeof message === 'string' ? message : 'refused');
  });
  scim.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) reply.type(SCIM_TYPE);
    return payload;
  });
  scim.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const detail = `${error.validationContext ?? 'request'}: ${error.message}`;
      return reply.code(400).send(scimError(400, detail, 'invalidSyntax'));
    }
    let problem: ScimProblem;
    try {
      problem = asProblem(error);
    } catch {
      const status =
        error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'SCIM request failed');
      const detail = status === 500 ? 'internal server error' : error.message;
      return reply.code(status).send(scimError(status, detail, status === 400 ? 'invalidSyntax' : undefined));
    }
    return reply.code(problem.status).send(scimError(problem.status, problem.message, problem.scimType));
  });
  scim.setNotFoundHandler((request, reply) =>
    reply.code(404).send(scimError(404, `no such endpoint: ${request.method} ${request.url.split('?')[0]}`)),
  );

  const sendJson = (reply: FastifyReply, body: unknown) => reply.type(SCIM_TYPE).send(JSON.stringify(body));

  scim.get('/ServiceProviderConfig', { config: read, schema: scimDiscoverySchema }, async (_request, reply) =>
    sendJson(reply, await discovery('ServiceProviderConfig')),
  );
  scim.get('/Schemas', { config: read, schema: scimDiscoverySchema }, async (_request, reply) =>
    sendJson(reply, await discovery('Schema')),
  );
  scim.get('/Schemas/:id', { config: read, schema: scimDiscoveryOneSchema }, async (request, reply) =>
    sendJson(reply, await discovery('Schema', request.params.id)),
  );
  scim.get('/ResourceTypes', { config: read, schema: scimDiscoverySchema }, async (_request, reply) =>
    sendJson(reply, await discovery('ResourceType')),
  );
  scim.get('/ResourceTypes/:id', { config: read, schema: scimDiscoveryOneSchema }, async (request, reply) =>
    sendJson(reply, await discovery('ResourceType', request.params.id)),
  );

  const userOf = async (directory: DirectoryCaller, id: string) => {
    const row = await repos.scim.findUser(directory.team_id, id);
    if (!row) throw new ScimProblem(404, `no user ${id}`);
    return userResource(row, base);
  };
  const groupOf = async (directory: DirectoryCaller, id: string, withMembers = true) => {
    const row = await repos.scim.findGroup(directory.team_id, id, withMembers);
    if (!row) throw new ScimProblem(404, `no group ${id}`);
    return groupResource(row, base);
  };

  scim.get('/Users', { config: read, schema: scimListUsersSchema }, async (request) => {
    const directory = directoryOf(request);
    const { startIndex, count } = paging(request.query);
    const { filter } = request.query;
    const conditions = filter === undefined ? [] : userConditions(filter);
    const page = conditions
      ? await repos.scim.listUsers(directory.team_id, conditions, startIndex - 1, count)
      : { total: 0, rows: [] };
    return listResponse(
      page.rows.map((row) => userResource(row, base)),
      page.total,
      startIndex,
    );
  });

  scim.get('/Users/:id', { config: read, schema: scimGetUserSchema }, async (request) =>
    userOf(directoryOf(request), request.params.id),
  );

  /** A set-your-password token for a member made or enabled now, when the directory's members set one. */
  const passwordTicket = (directory: DirectoryCaller, active: boolean) => {
    if (directory.sign_in !== 'invitation' || !active) return null;
    const token = randomToken(32);
    // Valid as long as an invitation.
    return { token, ticket: { tokenHash: sha256(token), expiresAt: clock.now() + INVITATION_TTL_MS } };
  };

  /** A write's member, after the invitation mail when a ticket went with it. */
  async function written(
    request: FastifyRequest,
    directory: DirectoryCaller,
    outcome: ScimOutcome,
    email: string,
    password: ReturnType<typeof passwordTicket>,
  ) {
    const id = idOf(outcome);
    if (outcome.ok && outcome.ticketIssued && password)
      await sendInvitation(request, directory, { id, email }, password.token, password.ticket.expiresAt);
    return userOf(directory, id);
  }

  /** PUT, and PATCH once applied: the member's fields as the directory has them now. */
  async function saveUser(
    request: FastifyRequest,
    directory: DirectoryCaller,
    id: string,
    fields: ScimUserFields,
  ) {
    const password = passwordTicket(directory, fields.active);
    const actor = directoryActor(directory);
    const outcome = await repos.scim.replaceUser(
      directory.team_id,
      actor,
      id,
      fields,
      clock.now(),
      password?.ticket,
    );
    return written(request, directory, outcome, fields.email, password);
  }

  scim.post('/Users', { config: write, schema: scimCreateUserSchema }, async (request, reply) => {
    const directory = directoryOf(request);
    const fields = userFromBody(request.body);
    const password = passwordTicket(directory, fields.active);
    const actor = directoryActor(directory);
    const outcome = await repos.scim.createUser(
      directory.team_id,
      actor,
      fields,
      clock.now(),
      password?.ticket,
    );
    const user = await written(request, directory, outcome, fields.email, password);
    return reply.code(201).header('Location', user.meta.location).send(user);
  });

  scim.put('/Users/:id', { config: write, schema: scimChangeUserSchema }, async (request) =>
    saveUser(request, directoryOf(request), request.params.id, userFromBody(request.body)),
  );

  scim.patch('/Users/:id', { config: write, schema: scimChangeUserSchema }, async (request) => {
    const directory = directoryOf(request);
    const current = await userOf(directory, request.params.id);
    return saveUser(
      request,
      directory,
      current.id,
      userFields(await applyPatch('User', current, request.body)),
    );
  });

  scim.delete('/Users/:id', { config: read, schema: scimDeleteSchema }, async (request, reply) => {
    const directory = directoryOf(request);
    idOf(
      await repos.scim.removeUser(
        directory.team_id,
        directoryActor(directory),
        request.params.id,
        clock.now(),
      ),
    );
    return reply.code(204).send();
  });

  scim.get('/Groups', { config: read, schema: scimListGroupsSchema }, async (request) => {
    const directory = directoryOf(request);
    const { startIndex, count } = paging(request.query);
    const { filter } = request.query;
    const conditions = filter === undefined ? [] : groupConditions(filter);
    const withMembers = !excludesMembers(request.query);
    const page = conditions
      ? await repos.scim.listGroups(directory.team_id, conditions, startIndex - 1, count, withMembers)
      : { total: 0, rows: [] };
    return listResponse(
      page.rows.map((row) => groupResource(row, base)),
      page.total,
      startIndex,
    );
  });

  scim.get('/Groups/:id', { config: read, schema: scimGetGroupSchema }, async (request) =>
    groupOf(directoryOf(request), request.params.id, !excludesMembers(request.query)),
  );

  scim.post('/Groups', { config: write, schema: scimCreateGroupSchema }, async (request, reply) => {
    const directory = directoryOf(request);
    const { name, externalId, memberIds } = groupFromBody(request.body);
    const outcome = await repos.scim.createGroup(
      directory.team_id,
      directoryActor(directory),
      { name, externalId, members: { set: memberIds } },
      clock.now(),
    );
    const group = await groupOf(directory, idOf(outcome));
    return reply.code(201).header('Location', group.meta.location).send(group);
  });

  scim.put('/Groups/:id', { config: write, schema: scimChangeGroupSchema }, async (request) => {
    const directory = directoryOf(request);
    const { name, externalId, memberIds } = groupFromBody(request.body);
    const outcome = await repos.scim.replaceGroup(
      directory.team_id,
      directoryActor(directory),
      request.params.id,
      { name, externalId, members: { set: memberIds } },
      clock.now(),
    );
    return groupOf(directory, idOf(outcome), !excludesMembers(request.query));
  });

  scim.patch('/Groups/:id', { config: write, schema: scimChangeGroupSchema }, async (request) => {
    const directory = directoryOf(request);
    const current = await groupOf(directory, request.params.id);
    const patched = groupFields(await applyPatch('Group', current, request.body));
    // Only who joins and who leaves is written: a PATCH racing another keeps both's members.
    const before = new Set((current.members ?? []).map((member) => member.value));
    const after = new Set(patched.memberIds);
    const outcome = await repos.scim.replaceGroup(
      directory.team_id,
      directoryActor(directory),
      current.id,
      {
        name: patched.name,
        externalId: patched.externalId,
        members: {
          add: [...after].filter((id) => !before.has(id)),
          remove: [...before].filter((id) => !after.has(id)),
        },
      },
      clock.now(),
    );
    return groupOf(directory, idOf(outcome), !excludesMembers(request.query));
  });

  scim.delete('/Groups/:id', { config: read, schema: scimDeleteSchema }, async (request, reply) => {
    const directory = directoryOf(request);
    if (
      !(await repos.groups.remove(
        directory.team_id,
        request.params.id,
        directoryActor(directory),
        clock.now(),
      ))
    )
      throw new ScimProblem(404, `no group ${request.params.id}`);
    return reply.code(204).send();
  });

  /**
   * A member the directory made, for a directory whose members set a password: the invitation
   * mail, in the name of the admin who added the directory, whose link sets the password.
   */
  async function sendInvitation(
    request: FastifyRequest,
    directory: DirectoryCaller,
    member: { id: string; email: string },
    token: string,
    expiresAt: number,
  ) {
    const team = await repos.teams.brandingOf(directory.team_id);
    const query = new URLSearchParams({ id: member.id, token });
    const link = `${config.publicUrl}/login/${encodeURIComponent(directory.team_name)}/resetPassword?${query}`;
    const message = inviteMail({
      language: answerLanguage(request),
      brand: mailBrand(team.brand ?? config.brand),
      inviter: { name: directory.created_by_name, email: directory.created_by_email },
      team: team.display_name,
      link,
      expires: new Date(expiresAt),
    });
    sendInBackground(request, { to: member.email, ...message });
  }
};
