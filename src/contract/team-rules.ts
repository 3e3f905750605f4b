import type { Permission } from './permissions';

/**
 * Who may administer a team, and what no admin action may leave behind (design §7): admins are members
 * with OWNER or ADMIN; only an OWNER makes, changes or removes owners (and changes the seat limit); a
 * team keeps at least one OWNER who is not disabled; an admin cannot lock themselves out (disable or
 * remove themselves, or drop their own admin rights). Plain functions: the repositories apply them
 * inside the transaction that reads the state they judge.
 */

export const isAdmin = (permissions: ReadonlySet<string>): boolean =>
  permissions.has('OWNER') || permissions.has('ADMIN');

/** Why a change of a member is refused; null when it may go ahead. */
export type MemberRefusal = 'notOwner' | 'self' | 'lastOwner';

export interface MemberState {
  id: string;
  permissions: readonly string[];
  disabled: boolean;
}

export interface MemberChangeInput {
  actor: { id: string; owner: boolean };
  target: MemberState;
  /** What the target becomes; null: removed from the team. */
  next: MemberState | null;
  /** Owners of the team who are not disabled, the target included if they are one. */
  activeOwners: number;
}

const activeOwner = (member: MemberState | null) =>
  !!member && !member.disabled && member.permissions.includes('OWNER');
const admin = (member: MemberState | null) =>
  !!member &&
  !member.disabled &&
  (member.permissions.includes('OWNER') || member.permissions.includes('ADMIN'));

export function refuseMemberChange({
  actor,
  target,
  next,
  activeOwners,
}: MemberChangeInput): MemberRefusal | null {
  const touchesOwner = target.permissions.includes('OWNER') || !!next?.permissions.includes('OWNER');
  if (touchesOwner && !actor.owner) return 'notOwner';
  if (target.id === actor.id && !admin(next)) return 'self';
  const after = activeOwners - (activeOwner(target) ? 1 : 0) + (activeOwner(next) ? 1 : 0);
  if (after < 1) return 'lastOwner';
  return null;
}

/** An invitation may grant OWNER only when an owner sends it. */
export const mayGrant = (permissions: readonly Permission[], actorIsOwner: boolean): boolean =>
  actorIsOwner || !permissions.includes('OWNER');

/** What the audit trail records (design §7: who, what, whom, when). */
export const AUDIT_ACTIONS = [
  // Its first event: who started the team by signing up (the actor, its first owner).
  'team.created',
  'member.invited',
  'invitation.resent',
  'invitation.revoked',
  'invitation.accepted',
  'member.permissions',
  'member.disabled',
  'member.enabled',
  'member.removed',
  'member.unlocked',
  'team.seatLimit',
  'team.loginOptions',
  'group.created',
  'group.renamed',
  'group.deleted',
  'group.memberAdded',
  'group.memberRemoved',
  'team.storage',
  'app.registered',
  'app.changed',
  'app.secretRotated',
  'app.disabled',
  'app.enabled',
  'app.deleted',
  'domain.added',
  'domain.verified',
  'domain.unverified',
  'domain.removed',
  'domain.signIn',
  'connection.added',
  'connection.changed',
  'connection.enabled',
  'connection.disabled',
  'connection.removed',
  'member.joinedThroughSso',
  'setupLink.created',
  'setupLink.revoked',
  'setupLink.opened',
  'directory.added',
  'directory.tokenRotated',
  'directory.revoked',
  'member.provisioned',
  'member.detailsChanged',
  'domain.autoJoin',
  'joinRequest.created',
  'joinRequest.approved',
  'joinRequest.declined',
  'stream.added',
  'stream.secretRotated',
  'stream.paused',
  'stream.resumed',
  'stream.tested',
  'stream.disabled',
  'stream.removed',
  // The members' security events: the member is both actor and target (lib/activity.ts).
  'user.signedIn',
  'user.signInFailed',
  'user.twoStepFailed',
  'user.twoStepEnabled',
  'user.twoStepDisabled',
  'user.twoStepMoved',
  'user.recoveryCodeUsed',
  'user.recoveryCodesRenewed',
  'user.passkeyAdded',
  'user.passkeyRemoved',
  'user.passwordChanged',
  'user.passwordSet',
  'user.passwordReset',
  'user.emailChanged',
  'user.emailChangeUndone',
  'user.providerConnected',
  'user.providerDisconnected',
  'user.appAllowed',
  'user.appAccessRemoved',
  'session.signedOut',
  'session.ended',
  'session.othersEnded',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A setup link for a team's IT contact works five days from when an owner sent it. */
export const SETUP_LINK_TTL_MS = 5 * 24 * 3600_000;

/**
 * How the audit trail names an IT contact who acted through a setup link: the actor's id is the link's
 * behind this prefix (never a member's id), their address the one the link was sent to.
 */
export const SETUP_ACTOR_PREFIX = 'setup-link:';

/** A setup link as its owners see it: not opened yet, opened (bound to a browser), or no longer usable. */
export type SetupLinkState = 'pending' | 'used' | 'expired' | 'revoked';

export function setupLinkState(
  row: { revoked_at: number | null; expires_at: number; opened_at: number | null },
  now: number,
): SetupLinkState {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at <= now) return 'expired';
  return row.opened_at !== null ? 'used' : 'pending';
}

/** The kinds of action the trail can be filtered by: an action's first part. */
export const AUDIT_KINDS = [
  'member',
  'invitation',
  'group',
  'team',
  'app',
  'domain',
  'connection',
  'directory',
  'joinRequest',
  'stream',
  'user',
  'session',
] as const;

/** The code mailed to verify the address of a request to join: six digits, ten minutes, five tries. */
export const JOIN_CODE_LENGTH = 6;
export const JOIN_CODE_TTL_MS = 10 * 60_000;
export const JOIN_CODE_ATTEMPTS = 5;

/** Invitations live seven days from when they were (last) sent. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

/** Why an invitation link no longer works. */
export type InvitationGone = 'used' | 'revoked' | 'superseded' | 'expired' | 'invalid';

export function invitationState(
  row: {
    accepted_at: number | null;
    revoked_at: number | null;
    superseded_at: number | null;
    expires_at: number;
  },
  now: number,
): InvitationGone | 'pending' {
  if (row.accepted_at !== null) return 'used';
  if (row.revoked_at !== null) return 'revoked';
  if (row.superseded_at !== null) return 'superseded';
  if (row.expires_at <= now) return 'expired';
  return 'pending';
}

/**
 * The longest range the event log exports at once (the export streams, so this bounds the time one
 * request takes, not memory): a year and a day, so a full calendar year always fits.
 */
export const EVENT_EXPORT_MAX_DAYS = 366;
