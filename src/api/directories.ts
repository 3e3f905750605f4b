import type {
  Directory as DirectorySchema,
  DirectoryBody,
  DirectoryList,
  DirectoryWithToken as DirectoryWithTokenSchema,
} from '../contract/schemas/directories';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// A team's directories (SCIM clients; team administration): the only caller of these endpoints. The
// types are the server's schemas, imported as types only (see endpoints.ts).

export type Directory = DirectorySchema;
export type DirectoryWithToken = DirectoryWithTokenSchema;
export type NewDirectory = DirectoryBody;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);
const directoryAt = (ctx: ApiContext, id: string, rest = '') =>
  at(ctx, `/api/team/directories/${encodeURIComponent(id)}${rest}`);

/** GET /api/team/directories (admin): the team's directories and the SCIM address they call. */
export function listDirectories(ctx: ApiContext, signal?: AbortSignal): Promise<DirectoryList> {
  return request<DirectoryList>(ctx, at(ctx, '/api/team/directories'), { signal });
}

/** POST /api/team/directories (admin): the directory and its token, shown once. 400 `invalidName`. */
export function addDirectory(ctx: ApiContext, body: NewDirectory): Promise<DirectoryWithToken> {
  return request<DirectoryWithToken>(ctx, at(ctx, '/api/team/directories'), { method: 'POST', json: body });
}

/** POST /api/team/directories/:id/token (admin): a new token; the old one stops at once. */
export function rotateDirectoryToken(ctx: ApiContext, id: string): Promise<DirectoryWithToken> {
  return request<DirectoryWithToken>(ctx, directoryAt(ctx, id, '/token'), { method: 'POST' });
}

/** DELETE /api/team/directories/:id (admin): 204; its token stops, the members it made stay. */
export function revokeDirectory(ctx: ApiContext, id: string): Promise<unknown> {
  return request<unknown>(ctx, directoryAt(ctx, id), { method: 'DELETE' });
}
