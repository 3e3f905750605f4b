import type { Static } from 'typebox';
import type {
  Group as GroupSchema,
  GroupList as GroupListSchema,
  Member as MemberSchema,
  MemberList as MemberListSchema,
  MemberPatch as MemberPatchSchema,
  Permission as PermissionSchema,
  SignInMethod as SignInMethodSchema,
} from '../contract/schemas/team';
import { ApiError, request, type ApiContext } from './client';
import { issuerUrl } from './url';

// The team administration calls of the users and groups screens (demo/server/README.md, "Team
// administration"). Types come from the server's schemas as types only, so nothing of them is bundled.

export type Member = Static<typeof MemberSchema>;
export type MemberList = Static<typeof MemberListSchema>;
export type MemberPatch = Static<typeof MemberPatchSchema>;
export type Permission = Static<typeof PermissionSchema>;
export type SignInMethod = Static<typeof SignInMethodSchema>;
export type Group = Static<typeof GroupSchema>;
export type GroupList = Static<typeof GroupListSchema>;

/** Every permission, in the server's order (domain/permissions.ts). */
export const PERMISSION_NAMES: readonly Permission[] = ['OWNER', 'ADMIN', 'EDITOR', 'APPROVER', 'SPOKE'];

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);
const id = encodeURIComponent;

/** The stable word of a refusal (`{message, code?, field?}`), or null. */
export function errorCode(error: unknown): string | null {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object') return null;
  const code = (error.body as Record<string, unknown>).code;
  return typeof code === 'string' ? code : null;
}

/** GET /api/team/members: a page of members, by name or matching `q`; `cursor` is the last page's `next`. */
export function listMembers(
  ctx: ApiContext,
  query: { q?: string; cursor?: string | null; limit?: number },
  signal?: AbortSignal,
): Promise<MemberList> {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.cursor) params.set('cursor', query.cursor);
  if (query.limit) params.set('limit', String(query.limit));
  const search = params.toString() ? `?${params}` : '';
  return request<MemberList>(ctx, at(ctx, `/api/team/members${search}`), { signal });
}

/** PATCH /api/team/members/:id: permissions and/or disabled; 403 notOwner, 409 lastOwner or self. */
export function updateMember(ctx: ApiContext, memberId: string, patch: MemberPatch): Promise<Member> {
  return request<Member>(ctx, at(ctx, `/api/team/members/${id(memberId)}`), { method: 'PATCH', json: patch });
}

/** POST /api/team/members/:id/unlock: lift a lock (failed sign-ins or an admin's); the member as now. */
export function unlockMember(ctx: ApiContext, memberId: string): Promise<Member> {
  return request<Member>(ctx, at(ctx, `/api/team/members/${id(memberId)}/unlock`), { method: 'POST' });
}

/** DELETE /api/team/members/:id: 204; 403 notOwner, 409 lastOwner or self. */
export function removeMember(ctx: ApiContext, memberId: string): Promise<null> {
  return request<null>(ctx, at(ctx, `/api/team/members/${id(memberId)}`), { method: 'DELETE' });
}

/** GET /api/team/groups: every group of the team with its members, by name. */
export function listGroups(ctx: ApiContext, signal?: AbortSignal): Promise<GroupList> {
  return request<GroupList>(ctx, at(ctx, '/api/team/groups'), { signal });
}

/** POST /api/team/groups: 201; 400 invalidName, 409 nameTaken (field `name`). */
export function createGroup(ctx: ApiContext, name: string): Promise<Group> {
  return request<Group>(ctx, at(ctx, '/api/team/groups'), { method: 'POST', json: { name } });
}

/** PATCH /api/team/groups/:id: renames; 400 invalidName, 404, 409 nameTaken. */
export function renameGroup(ctx: ApiContext, groupId: string, name: string): Promise<Group> {
  return request<Group>(ctx, at(ctx, `/api/team/groups/${id(groupId)}`), { method: 'PATCH', json: { name } });
}

/** DELETE /api/team/groups/:id: 204; 404. */
export function deleteGroup(ctx: ApiContext, groupId: string): Promise<null> {
  return request<null>(ctx, at(ctx, `/api/team/groups/${id(groupId)}`), { method: 'DELETE' });
}

/** PUT (add) or DELETE (take out) /api/team/groups/:id/members/:userId: the group as it now is. */
export function setGroupMember(
  ctx: ApiContext,
  groupId: string,
  memberId: string,
  inGroup: boolean,
): Promise<Group> {
  return request<Group>(ctx, at(ctx, `/api/team/groups/${id(groupId)}/members/${id(memberId)}`), {
    method: inGroup ? 'PUT' : 'DELETE',
  });
}
