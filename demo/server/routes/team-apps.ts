import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TeamAppFields, TeamAppPatch, TeamAppRow } from '../db/team-apps';
import { cleanName } from '../lib/names';
import { MACHINE_SCOPES, newClientId, newSecret } from '../lib/team-apps';
import { adminOf } from '../plugins/auth';
import {
  appUriProblem,
  LOGOUT_KINDS,
  logoutUriProblem,
  REDIRECT_KINDS,
  SECRET_KINDS,
  type AppKind,
  type AppUriProblem,
} from '../../../src/contract/app-uris';
import {
  createTeamAppSchema,
  deleteTeamAppSchema,
  listTeamAppsSchema,
  rotateTeamAppSecretSchema,
  updateTeamAppSchema,
  type TeamApp,
} from '../../../src/contract/schemas/team-apps';

const NOT_FOUND = { message: 'no such app', code: 'notFound' } as const;

/** The app as its admins see it (schemas/team-apps.ts `TeamApp`). */
function teamAppView(row: TeamAppRow): TeamApp {
  return {
    clientId: row.client_id,
    name: row.name,
    kind: row.kind,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
    backchannelLogoutUri: row.backchannel_logout_uri,
    thirdParty: row.third_party === 1,
    disabled: row.disabled === 1,
    hasSecret: row.secret_hash !== null,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}

/** A refusal of one field: its stable code and the field (`redirectUris.1` for a list's entry). */
interface FieldProblem {
  code: AppUriProblem | 'uriRequired' | 'uriNotAllowed';
  field: string;
}

/** The first problem with the addresses an app of this kind would have, or null. */
function addressProblem(
  kind: AppKind,
  uris: { redirectUris: string[]; postLogoutRedirectUris: string[]; backchannelLogoutUri: string | null },
  postsToLoopback: boolean,
): FieldProblem | null {
  const redirects = REDIRECT_KINDS.has(kind);
  if (redirects && uris.redirectUris.length === 0) return { code: 'uriRequired', field: 'redirectUris' };
  const lists = [
    ['redirectUris', uris.redirectUris],
    ['postLogoutRedirectUris', uris.postLogoutRedirectUris],
  ] as const;
  for (const [field, list] of lists) {
    if (!redirects && list.length > 0) return { code: 'uriNotAllowed', field };
    for (const [index, uri] of list.entries()) {
      const code = appUriProblem(uri, kind);
      if (code) return { code, field: `${field}.${index}` };
    }
  }
  if (uris.backchannelLogoutUri !== null) {
    if (!LOGOUT_KINDS.has(kind)) return { code: 'uriNotAllowed', field: 'backchannelLogoutUri' };
    const code = logoutUriProblem(uris.backchannelLogoutUri, postsToLoopback);
    if (code) return { code, field: 'backchannelLogoutUri' };
  }
  return null;
}

const MESSAGES: Record<FieldProblem['code'], string> = {
  invalidUri: 'not an absolute URL',
  insecureUri: 'must be https (http only to localhost; a native app may use its own scheme)',
  fragmentUri: 'must not have a fragment',
  loopbackLogoutUri: 'this server does not post to localhost: use an address it can reach',
  uriRequired: 'this kind of app needs at least one redirect URI',
  uriNotAllowed: 'this kind of app has no such address',
};

/**
 * A team's own applications, for its owners and admins (docs/decisions/team-app-secrets.md): list,
 * register, change, turn off or on, a new secret, delete. A secret is answered once, in clear, when
 * it is made; only its SHA-256 is kept. Ids are looked up in the caller's team only; every change is
 * in the team's audit trail.
 */
export const teamAppRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, config } = app.services;
  // The server posts logout tokens to this machine only in demo mode (lib/openid-provider.ts).
  const postsToLoopback = config.demo;
  const admin = { auth: 'bearer', role: 'admin' } as const;
  // Only the schema knows an address's length: a too-long back-channel URI is refused at its field.
  const withAddresses = { ...admin, body: 'json', invalid: { backchannelLogoutUri: 'uriTooLong' } } as const;

  app.get('/api/team/apps', { config: admin, schema: listTeamAppsSchema }, async (request) => {
    const rows = await repos.teamApps.list(adminOf(request).caller.user.team_id);
    return { apps: rows.map(teamAppView) };
  });

  app.post(
    '/api/team/apps',
    { config: withAddresses, schema: createTeamAppSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const { body } = request;
      const name = cleanName(body.name);
      if (!('name' in name))
        return reply.code(400).send({ message: name.message, code: 'invalidName', field: 'name' });
      const fields: TeamAppFields = {
        name: name.name,
        kind: body.kind,
        redirectUris: body.redirectUris ?? [],
        postLogoutRedirectUris: body.postLogoutRedirectUris ?? [],
        backchannelLogoutUri: body.backchannelLogoutUri ?? null,
        thirdParty: body.thirdParty ?? false,
      };
      const problem = addressProblem(body.kind, fields, postsToLoopback);
      if (problem) return reply.code(400).send({ message: MESSAGES[problem.code], ...problem });
      const secret = SECRET_KINDS.has(body.kind) ? newSecret() : null;
      const row = await repos.teamApps.create(
        caller.user.team_id,
        {
          ...fields,
          clientId: newClientId(),
          secretHash: secret?.hash ?? null,
          scopes: body.kind === 'machine' ? MACHINE_SCOPES : '',
        },
        actor,
        clock.now(),
      );
      return reply.code(201).send({ app: teamAppView(row), clientSecret: secret?.secret ?? null });
    },
  );

  app.patch(
    '/api/team/apps/:clientId',
    { config: withAddresses, schema: updateTeamAppSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const teamId = caller.user.team_id;
      const { body } = request;
      const current = await repos.teamApps.find(request.params.clientId);
      if (!current || current.team_id !== teamId) return reply.code(404).send(NOT_FOUND);
      const patch: TeamAppPatch = {
        redirectUris: body.redirectUris,
        postLogoutRedirectUris: body.postLogoutRedirectUris,
        backchannelLogoutUri: body.backchannelLogoutUri,
        thirdParty: body.thirdParty,
        disabled: body.disabled,
      };
      if (body.name !== undefined) {
        const name = cleanName(body.name);
        if (!('name' in name))
          return reply.code(400).send({ message: name.message, code: 'invalidName', field: 'name' });
        patch.name = name.name;
      }
      const view = teamAppView(current);
      const problem = addressProblem(
        current.kind,
        {
          redirectUris: patch.redirectUris ?? view.redirectUris,
          postLogoutRedirectUris: patch.postLogoutRedirectUris ?? view.postLogoutRedirectUris,
          backchannelLogoutUri:
            patch.backchannelLogoutUri === undefined ? view.backchannelLogoutUri : patch.backchannelLogoutUri,
        },
        postsToLoopback,
      );
      if (problem) return reply.code(400).send({ message: MESSAGES[problem.code], ...problem });
      const row = await repos.teamApps.update(teamId, current.client_id, patch, actor, clock.now());
      if (!row) return reply.code(404).send(NOT_FOUND);
      return teamAppView(row);
    },
  );

  app.post(
    '/api/team/apps/:clientId/secret',
    { config: admin, schema: rotateTeamAppSecretSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const teamId = caller.user.team_id;
      const secret = newSecret();
      const { clientId } = request.params;
      if (!(await repos.teamApps.rotateSecret(teamId, clientId, secret.hash, actor, clock.now())))
        return reply.code(404).send(NOT_FOUND);
      const row = await repos.teamApps.find(clientId);
      if (!row) return reply.code(404).send(NOT_FOUND);
      return { app: teamAppView(row), clientSecret: secret.secret };
    },
  );

  app.delete(
    '/api/team/apps/:clientId',
    { config: admin, schema: deleteTeamAppSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      if (!(await repos.teamApps.remove(caller.user.team_id, request.params.clientId, actor, clock.now())))
        return reply.code(404).send(NOT_FOUND);
      return reply.code(204).send();
    },
  );
};
