import { Type, type Static } from 'typebox';
import { PERMISSIONS } from '../permissions';
import { LIMITS } from '../limits';
import { Permission } from './team';
import { TwoStepNeeded } from './two-step';

/**
 * Invitations: the admins' calls (invite, list, resend, revoke) and the invitee's (inspect the link,
 * accept it). The elements import the types only (`import type … Static<…>`).
 */

export const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  permissions: Type.Array(Permission),
  /** ISO 8601: when the current link was sent. */
  sentAt: Type.String(),
  /** ISO 8601: seven days after `sentAt`; in the past for an expired invitation (it holds no seat). */
  expiresAt: Type.String(),
  /** Who sent the current link; null once they have left the team. */
  invitedBy: Type.Union([Type.Object({ name: Type.String(), email: Type.String() }), Type.Null()]),
});
export type Invitation = Static<typeof Invitation>;

export const InvitationList = Type.Object({ invitations: Type.Array(Invitation) });
export type InvitationList = Static<typeof InvitationList>;

export const InviteBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: LIMITS.email }),
    permissions: Type.Array(Permission, { minItems: 1, maxItems: PERMISSIONS.length, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type InviteBody = Static<typeof InviteBody>;

export const InvitationParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

/** What an invitation link carries (`/login/{team}/invite?id=…&token=…`). */
const LinkFields = {
  teamName: Type.String({ minLength: 1, maxLength: LIMITS.teamName }),
  invitationId: Type.String({ minLength: 1, maxLength: 100 }),
  token: Type.String({ minLength: 1, maxLength: 200 }),
};

export const InspectBody = Type.Object(LinkFields, { additionalProperties: false });
export type InspectBody = Static<typeof InspectBody>;

export const InvitationMethods = Type.Object({
  local: Type.Boolean(),
  google: Type.Boolean(),
  azure: Type.Boolean(),
  auth0: Type.Boolean(),
  apple: Type.Boolean(),
});

export const InspectResult = Type.Object({
  email: Type.String(),
  team: Type.Object({ name: Type.String(), displayName: Type.String() }),
  /** How the invitee may join: a password (`local`) or one of the team's providers. */
  methods: InvitationMethods,
  /** The label of the Auth0 button, when the team offers Auth0. */
  auth0DisplayName: Type.Union([Type.String(), Type.Null()]),
});
export type InspectResult = Static<typeof InspectResult>;

export const GoneReason = Type.Enum(['used', 'revoked', 'superseded', 'expired', 'invalid']);
export type GoneReason = Static<typeof GoneReason>;

/** 410: why the link no longer works. A wrong token or an unknown id is `invalid`, nothing more. */
export const GoneBody = Type.Object({
  message: Type.String(),
  code: Type.Literal('gone'),
  reason: GoneReason,
});
export type GoneBody = Static<typeof GoneBody>;

export const AcceptBody = Type.Object(
  {
    ...LinkFields,
    // The rules (trimmed, 1–50 characters; the reset's password policy) are checked after the link, with
    // their own codes at their own fields.
    name: Type.String({ maxLength: LIMITS.nameInput }),
    password: Type.String({ maxLength: LIMITS.newPassword }),
    confirmPassword: Type.String({ maxLength: LIMITS.newPassword }),
  },
  { additionalProperties: false },
);
export type AcceptBody = Static<typeof AcceptBody>;

/**
 * Joined and signed in; or — the team requiring two-step sign-in — joined with only a pending sign-in:
 * the new member sets up an authenticator app (`POST /account/two-step/enrol`) before a session begins.
 */
export const AcceptResult = Type.Union([Type.Object({ authenticated: Type.Literal(true) }), TwoStepNeeded]);
export type AcceptResult = Static<typeof AcceptResult>;
