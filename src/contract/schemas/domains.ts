import { Type, type Static } from 'typebox';
import { DOMAIN_CHECK_PROBLEMS, DOMAIN_STATES } from '../domains';
import { errors, NoBody, type RouteSchema } from './common';

const closed = { additionalProperties: false } as const;
/** The longest text the add form takes (an international name before its ASCII form grows). */
const DOMAIN_INPUT_LENGTH = 300;

/** A team's domain as its admins see it, with the DNS record that proves it. */
export const TeamDomain = Type.Object(
  {
    domain: Type.String(),
    state: Type.Enum([...DOMAIN_STATES]),
    /** The TXT record to publish: its name and its value. */
    recordName: Type.String(),
    recordValue: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    verifiedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    /** When the server last looked the record up, and what it found wrong then (null: nothing). */
    checkedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    lastProblem: Type.Union([Type.Enum([...DOMAIN_CHECK_PROBLEMS]), Type.Null()]),
    /** A verified domain's record has been missing since then; it becomes unverified after the grace. */
    missingSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    /** A pending domain fails after this time unproven. */
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    /** The connection its addresses sign in through (once verified, while it is on), or null. */
    connectionId: Type.Union([Type.String(), Type.Null()]),
    /** Its addresses sign in only through that connection (the team's owners excepted). */
    requireSso: Type.Boolean(),
    /** A verified person at the domain who asks to join is invited without an admin, seat allowing. */
    autoJoin: Type.Boolean(),
  },
  closed,
);
export type TeamDomain = Static<typeof TeamDomain>;

export const TeamDomainList = Type.Object({ domains: Type.Array(TeamDomain) }, closed);
export type TeamDomainList = Static<typeof TeamDomainList>;

export const TeamDomainBody = Type.Object(
  { domain: Type.String({ minLength: 1, maxLength: DOMAIN_INPUT_LENGTH }) },
  closed,
);
export type TeamDomainBody = Static<typeof TeamDomainBody>;

const DomainParams = Type.Object(
  { domain: Type.String({ minLength: 1, maxLength: DOMAIN_INPUT_LENGTH }) },
  closed,
);

export const listTeamDomainsSchema = {
  response: { 200: TeamDomainList, ...errors(400, 401, 403, 500) },
} satisfies RouteSchema;

/**
 * 400 `invalidDomain` or `publicDomain` (a mail service's domain, shared by strangers), 409
 * `domainTaken` (this team claims it already, or another team has it verified), each at the field
 * `domain`. Another team's claim that is not verified blocks nobody.
 */
export const addTeamDomainSchema = {
  body: TeamDomainBody,
  response: { 201: TeamDomain, ...errors(400, 401, 403, 409, 413, 415, 500) },
} satisfies RouteSchema;

/**
 * Looks the record up now: the domain as it stands after (verified, or pending with the problem); 409
 * `domainTaken` when another team proved it first.
 */
export const verifyTeamDomainSchema = {
  params: DomainParams,
  response: { 200: TeamDomain, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
} satisfies RouteSchema;

/**
 * `PATCH /api/team/domains/:domain`: how its addresses sign in — through one of the team's connections
 * (null: not through single sign-on), and whether only so. 409 `notVerified` for a domain not proven
 * yet; 400 `unknownConnection` at `connectionId`; 400 `noConnection` when requiring it with none.
 */
export const TeamDomainSignIn = Type.Object(
  {
    connectionId: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()]),
    requireSso: Type.Boolean(),
  },
  closed,
);
export type TeamDomainSignIn = Static<typeof TeamDomainSignIn>;

export const changeTeamDomainSchema = {
  params: DomainParams,
  body: TeamDomainSignIn,
  response: { 200: TeamDomain, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
} satisfies RouteSchema;

/**
 * `PUT /api/team/domains/:domain/auto-join`: whether people at the verified domain who ask to join are
 * invited without an admin's approval. 409 `notVerified` for a domain not proven yet.
 */
export const TeamDomainAutoJoin = Type.Object({ autoJoin: Type.Boolean() }, closed);
export type TeamDomainAutoJoin = Static<typeof TeamDomainAutoJoin>;

export const autoJoinTeamDomainSchema = {
  params: DomainParams,
  body: TeamDomainAutoJoin,
  response: { 200: TeamDomain, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
} satisfies RouteSchema;

export const deleteTeamDomainSchema = {
  params: DomainParams,
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;
