/**
 * The permissions a user may hold in a team (spec §6–§7: `GET /api/user/permissions` answers each one,
 * granted or not; a policy names the permissions that may request it as a scope). Part of the domain,
 * not of the demo data: the seed grants them, the routes answer them.
 */
export const PERMISSIONS = ['OWNER', 'ADMIN', 'EDITOR', 'APPROVER', 'SPOKE'] as const;
export type Permission = (typeof PERMISSIONS)[number];
