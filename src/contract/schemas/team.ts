import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits';
import { PERMISSIONS } from '../permissions';
import { AUDIT_ACTIONS, AUDIT_KINDS } from '../team-rules';
import { errors, type RouteSchema } from './common';

/** The longest path parameter the router passes to a route (Fastify's default, 100, would answer 414). */
export const MAX_PARAM_LENGTH = 2048;

/**
 * `GET /api/team/public/:team`, by name or id. Any name the router lets through is looked up: one too
 * long to exist is an unknown team like any other, not a different error.
 */
export const TeamParams = Type.Object(
  { team: Type.String({ minLength: 1, maxLength: MAX_PARAM_LENGTH }) },
  { additionalProperties: false },
);

/** A sign-in method's options: present means the team offers it. */
const Enabled = Type.Object({}, { additionalProperties: false });

/** A team's public details (spec §3): an option object present = that sign-in method is enabled. */
export const TeamPublicReply = Type.Object(
  {
    name: Type.String(),
    displayName: Type.String(),
    teamDisabled: Type.Boolean(),
    localOptions: Type.Optional(Enabled),
    googleOptions: Type.Optional(Enabled),
    azureOptions: Type.Optional(Enabled),
    auth0Options: Type.Optional(Type.Object({ displayName: Type.String() }, { additionalProperties: false })),
    appleOptions: Type.Optional(Enabled),
    /** Present when members may sign in with a passkey (as the first step; as the second, always). */
    passkeyOptions: Type.Optional(Enabled),
    /** Present when members may sign in with a code (and link) mailed to them. */
    emailCodeOptions: Type.Optional(Enabled),
    /** Present (true) when the team requires two-step sign-in. */
    requireTwoStep: Type.Optional(Type.Literal(true)),
    /**
     * The domains whose addresses sign in through the team's single sign-on (verified, with an
     * enabled connection), and whether only so: the sign-in screen routes such an address there.
     */
    ssoDomains: Type.Optional(
      Type.Array(
        Type.Object({ domain: Type.String(), required: Type.Boolean() }, { additionalProperties: false }),
      ),
    ),
  },
  { additionalProperties: false },
);
export const teamPublicSchema = {
  params: TeamParams,
  response: { 200: TeamPublicReply, ...errors(400, 404, 500) },
} satisfies RouteSchema;

/**
 * The team administration API (the team, members, groups, audit trail, storage and search): request
 * and response schemas. The elements import the types only (`import type … Static<…>`).
 */

export const Permission = Type.Enum([...PERMISSIONS]);
export type Permission = Static<typeof Permission>;

const Id = Type.String({ minLength: 1, maxLength: 100 });

/** The sign-in methods a team offers (each true: offered). */
export const LoginOptions = Type.Object({
  local: Type.Boolean(),
  google: Type.Boolean(),
  azure: Type.Boolean(),
  auth0: Type.Boolean(),
  apple: Type.Boolean(),
  /** Members must sign in with a second step; one without it enrols at their next password sign-in. */
  requireTwoStep: Type.Boolean(),
  /** Members may sign in with a passkey; a passkey as the second step after a password is always allowed. */
  passkeys: Type.Boolean(),
  /** Members may sign in with a code and link mailed to them; two-step sign-in still applies after it. */
  emailCode: Type.Boolean(),
});
export type LoginOptions = Static<typeof LoginOptions>;

export const TeamAdmin = Type.Object({
  id: Type.String(),
  name: Type.String(),
  displayName: Type.String(),
  /** `used` = members (disabled ones too) + pending invitations; never above `limit` by an invitation. */
  seats: Type.Object({
    used: Type.Integer(),
    limit: Type.Integer(),
    members: Type.Integer(),
    pending: Type.Integer(),
  }),
  storage: Type.Object({ usedBytes: Type.Number(), limitBytes: Type.Number() }),
  loginOptions: LoginOptions,
  /** Which providers the team has a configuration for: only those can be turned on. */
  configured: Type.Object({
    google: Type.Boolean(),
    azure: Type.Boolean(),
    auth0: Type.Boolean(),
    apple: Type.Boolean(),
  }),
  /** The name the sign-in page gives the team's Auth0 connection, so both screens call it the same. */
  auth0DisplayName: Type.String(),
  /** The support panel: the team's account manager, each part null when not set. */
  support: Type.Object({
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    phone: Type.Union([Type.String(), Type.Null()]),
  }),
  callerIsOwner: Type.Boolean(),
  /** Members (not disabled) without two-step sign-in: those who must set it up if the team requires it. */
  membersWithoutTwoStep: Type.Integer(),
  /** Present for a team a sign-up made, until its admins put the first-steps checklist away. */
  checklist: Type.Optional(Type.Literal(true)),
});
export type TeamAdmin = Static<typeof TeamAdmin>;

export const SEAT_LIMIT_MAX = 100_000;
export const SeatLimitBody = Type.Object(
  { limit: Type.Integer({ minimum: 1, maximum: SEAT_LIMIT_MAX }) },
  { additionalProperties: false },
);
export type SeatLimitBody = Static<typeof SeatLimitBody>;

export const LoginOptionsBody = Type.Partial(LoginOptions, { additionalProperties: false, minProperties: 1 });
export type LoginOptionsBody = Static<typeof LoginOptionsBody>;

/** How a member can sign in: a password, or a linked provider identity. */
export const SignInMethod = Type.Enum(['password', 'google', 'azure', 'auth0', 'apple', 'sso']);
export type SignInMethod = Static<typeof SignInMethod>;

export const GroupRef = Type.Object({ id: Type.String(), name: Type.String() });

export const Member = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  permissions: Type.Array(Permission),
  methods: Type.Array(SignInMethod),
  /** ISO 8601; null: never signed in. */
  lastSignInAt: Type.Union([Type.String(), Type.Null()]),
  disabled: Type.Boolean(),
  groups: Type.Array(GroupRef),
  /**
   * Why the member cannot sign in now, null when they can: too many failed sign-ins (until a time,
   * ISO 8601), or an administrator's lock (no end). An admin lifts either (`…/unlock`).
   */
  locked: Type.Union([
    Type.Null(),
    Type.Object({ reason: Type.Literal('failedSignIns'), until: Type.String() }),
    Type.Object({ reason: Type.Literal('admin'), until: Type.Null() }),
  ]),
  /** Two-step sign-in is set up (a confirmed authenticator app). */
  twoStep: Type.Boolean(),
});
export type Member = Static<typeof Member>;

/** A page size in an address (queries are not coerced): 1 to 100. */
const PAGE_LIMIT = '^(100|[1-9][0-9]?)$';

export const MEMBER_PAGE_DEFAULT = 25;
export const MEMBER_PAGE_MAX = 100;
export const MemberQuery = Type.Object(
  {
    /** The start of any word of the name, or of the e-mail address; any case, accents optional. */
    q: Type.Optional(Type.String({ maxLength: 100 })),
    /** The `next` of the previous page. */
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    /** 1–100 (default 25), as the address writes it. */
    limit: Type.Optional(Type.String({ pattern: PAGE_LIMIT })),
  },
  { additionalProperties: false },
);
export type MemberQuery = Static<typeof MemberQuery>;

export const MemberList = Type.Object({
  members: Type.Array(Member),
  /** The cursor of the next page; null on the last. */
  next: Type.Union([Type.String(), Type.Null()]),
  /** Members matching `q` (all members without it); a search counts up to 100 (`totalExact` false beyond). */
  total: Type.Integer(),
  totalExact: Type.Boolean(),
  /**
   * What the screen needs to offer only the changes the server allows (domain/team-rules.ts): whether
   * the caller is an owner, and how many owners the team has who are not disabled.
   */
  callerIsOwner: Type.Boolean(),
  activeOwners: Type.Integer(),
});
export type MemberList = Static<typeof MemberList>;

export const MemberParams = Type.Object({ id: Id }, { additionalProperties: false });

export const MemberPatch = Type.Object(
  {
    permissions: Type.Optional(Type.Array(Permission, { maxItems: PERMISSIONS.length, uniqueItems: true })),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type MemberPatch = Static<typeof MemberPatch>;

export const Group = Type.Object({
  id: Type.String(),
  name: Type.String(),
  members: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() })),
});
export type Group = Static<typeof Group>;

export const GroupList = Type.Object({ groups: Type.Array(Group) });
export type GroupList = Static<typeof GroupList>;

/** A group's name: trimmed, 1–50 characters, no control characters (checked by the route: `invalidName`). */
export const GroupBody = Type.Object(
  { name: Type.String({ maxLength: LIMITS.nameInput }) },
  { additionalProperties: false },
);
export type GroupBody = Static<typeof GroupBody>;

export const GroupParams = Type.Object({ id: Id }, { additionalProperties: false });
export const GroupMemberParams = Type.Object({ id: Id, userId: Id }, { additionalProperties: false });

export const AuditAction = Type.Enum([...AUDIT_ACTIONS]);
export type AuditAction = Static<typeof AuditAction>;

export const AuditEvent = Type.Object({
  id: Type.String(),
  at: Type.String(),
  /** Null when a team API client acted (a storage report). */
  actor: Type.Union([
    Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }),
    Type.Null(),
  ]),
  action: AuditAction,
  /** Whom or what: an e-mail address, a group's name, the changed methods… */
  target: Type.String(),
  /** What changed: permissions or methods before and after, a group's old name, a member's address. */
  detail: Type.Record(
    Type.String(),
    Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null(), Type.Array(Type.String())]),
  ),
  /** Where the request came from, when the deployment keeps addresses. */
  address: Type.Union([Type.String(), Type.Null()]),
  /** The server's id of the request, to match the event with the server's log. */
  requestId: Type.Union([Type.String(), Type.Null()]),
});
export type AuditEvent = Static<typeof AuditEvent>;

/** The kinds of admin action the trail can be filtered by: the part of `action` before the dot. */
export const AuditKind = Type.Enum([...AUDIT_KINDS]);
export type AuditKind = Static<typeof AuditKind>;

export const AuditQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: PAGE_LIMIT })),
    /** The `next` of the previous page: the events older than it. */
    before: Type.Optional(Type.String({ pattern: '^[0-9]{15}-[0-9a-z-]{1,60}$' })),
    /** Only this kind of action. */
    kind: Type.Optional(AuditKind),
    /** Only what this member did (their id). */
    actor: Type.Optional(Id),
    /** Only events at or after this instant (ISO 8601). */
    from: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
    /** Only events before this instant (ISO 8601). */
    to: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

/** The export of the team's event log: a range of at most EVENT_EXPORT_MAX_DAYS, as CSV or JSON. */
export const EventExportQuery = Type.Object(
  {
    from: Type.String({ format: 'date-time', maxLength: 40 }),
    to: Type.String({ format: 'date-time', maxLength: 40 }),
    format: Type.Union([Type.Literal('csv'), Type.Literal('json')]),
  },
  { additionalProperties: false },
);
export type EventExportQuery = Static<typeof EventExportQuery>;
export const exportEventsSchema = {
  querystring: EventExportQuery,
  response: {
    200: Type.String({ description: 'text/csv or application/json, as an attachment' }),
    ...errors(400, 401, 403, 500),
  },
};
export const AuditList = Type.Object({
  events: Type.Array(AuditEvent),
  /** The cursor of the next (older) page; null on the last. */
  next: Type.Union([Type.String(), Type.Null()]),
});
export type AuditList = Static<typeof AuditList>;

export const StorageBody = Type.Object(
  { usedBytes: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }) },
  { additionalProperties: false },
);
export type StorageBody = Static<typeof StorageBody>;
export const Storage = Type.Object({ usedBytes: Type.Number(), limitBytes: Type.Number() });
export type Storage = Static<typeof Storage>;

export const SearchQuery = Type.Object(
  { q: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);
export const SEARCH_MEMBERS_MAX = 10;
/** The members a search finds (at most 10; empty for a caller who is not a team admin). */
export const SearchResult = Type.Object({ members: Type.Array(Member) });
export type SearchResult = Static<typeof SearchResult>;
