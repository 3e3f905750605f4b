import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DirectoriesTable } from '../db/schema';
import { cleanName } from '../lib/names';
import { newDirectoryToken, SCIM_PREFIX } from '../lib/scim';
import { adminOf } from '../plugins/auth';
import {
  createDirectorySchema,
  deleteDirectorySchema,
  listDirectoriesSchema,
  rotateDirectoryTokenSchema,
  type Directory,
} from '../../../src/contract/schemas/directories';

const NOT_FOUND = { message: 'no such directory', code: 'notFound' } as const;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The directory as its admins see it (schemas/directories.ts `Directory`). */
function directoryView(row: DirectoriesTable): Directory {
  return {
    id: row.id,
    name: row.name,
    signIn: row.sign_in,
    createdAt: new Date(row.created_at).toISOString(),
    rotatedAt: iso(row.rotated_at),
    lastUsedAt: iso(row.last_used_at),
  };
}

/**
 * A team's directories (SCIM clients), for its owners and admins (docs/decisions/scim.md): list, add,
 * a new token, revoke. A token is answered once, in clear, when it is made; only its SHA-256 is kept.
 * Ids are looked up in the caller's team only; every change is in the team's audit trail.
 */
export const directoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, config } = app.services;
  const admin = { auth: 'bearer', role: 'admin' } as const;
  const scimUrl = `${config.publicUrl}${SCIM_PREFIX}`;

  app.get('/api/team/directories', { config: admin, schema: listDirectoriesSchema }, async (request) => {
    const rows = await repos.directories.list(adminOf(request).caller.user.team_id);
    return { directories: rows.map(directoryView), scimUrl };
  });

  app.post(
    '/api/team/directories',
    { config: { ...admin, body: 'json' }, schema: createDirectorySchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const name = cleanName(request.body.name);
      if (!('name' in name))
        return reply.code(400).send({ message: name.message, code: 'invalidName', field: 'name' });
      const token = newDirectoryToken();
      const row = await repos.directories.create(
        caller.user.team_id,
        { id: randomUUID(), name: name.name, tokenHash: token.hash, signIn: request.body.signIn },
        actor,
        clock.now(),
      );
      return reply.code(201).send({ directory: directoryView(row), token: token.token, scimUrl });
    },
  );

  app.post(
    '/api/team/directories/:id/token',
    { config: admin, schema: rotateDirectoryTokenSchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      const token = newDirectoryToken();
      const row = await repos.directories.rotate(
        caller.user.team_id,
        request.params.id,
        token.hash,
        actor,
        clock.now(),
      );
      if (!row) return reply.code(404).send(NOT_FOUND);
      return { directory: directoryView(row), token: token.token, scimUrl };
    },
  );

  app.delete(
    '/api/team/directories/:id',
    { config: admin, schema: deleteDirectorySchema },
    async (request, reply) => {
      const { caller, actor } = adminOf(request);
      if (!(await repos.directories.remove(caller.user.team_id, request.params.id, actor, clock.now())))
        return reply.code(404).send(NOT_FOUND);
      return reply.code(204).send();
    },
  );
};
