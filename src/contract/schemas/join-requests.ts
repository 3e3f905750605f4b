import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits';
import { JOIN_CODE_LENGTH } from '../team-rules';
import { errors, NoBody, type RouteSchema } from './common';

const closed = { additionalProperties: false } as const;

/**
 * `GET /account/join/team?domain=…`: the team a person at this domain may ask to join — the one that
 * has it verified, when it does not sign in through that team's single sign-on (then the team step
 * goes there instead). 404 `noTeam` otherwise. Says only what the domain's DNS record already says.
 */
export const joinTeamSchema = {
  querystring: Type.Object({ domain: Type.String({ minLength: 1, maxLength: LIMITS.email }) }, closed),
  response: {
    200: Type.Object({ name: Type.String(), displayName: Type.String() }, closed),
    ...errors(400, 404, 500),
  },
} satisfies RouteSchema;

/**
 * `POST /account/join` (JSON, under the anti-forgery rule): ask to join the team with a name and a work
 * address; a code is mailed to the address when it may ask. 202 with the request's id in every case —
 * for any address, member or not — so the answer tells nothing about who is in the team.
 */
export const JoinStartBody = Type.Object(
  {
    teamName: Type.String({ minLength: 1, maxLength: LIMITS.teamName }),
    email: Type.String({ minLength: 3, maxLength: LIMITS.email }),
    name: Type.String({ maxLength: LIMITS.nameInput }),
  },
  closed,
);
export type JoinStartBody = Static<typeof JoinStartBody>;
export const JoinStarted = Type.Object({ requestId: Type.String() }, closed);
export type JoinStarted = Static<typeof JoinStarted>;
export const joinStartSchema = {
  body: JoinStartBody,
  response: { 202: JoinStarted, ...errors(400, 403, 413, 415, 429, 500) },
} satisfies RouteSchema;

/**
 * `POST /account/join/verify`: the mailed code. 202 when it was right — the same answer whether the
 * request now waits for an admin, became an invitation, or was dropped (a member, asked before); 400
 * `wrongCode` at `code` (also when the code has expired or was used); 429 `locked` when the address's
 * failures lock it, as sign-in's do.
 */
export const JoinVerifyBody = Type.Object(
  {
    requestId: Type.String({ minLength: 1, maxLength: 100 }),
    code: Type.String({ minLength: 1, maxLength: JOIN_CODE_LENGTH + 4 }),
  },
  closed,
);
export type JoinVerifyBody = Static<typeof JoinVerifyBody>;
export const joinVerifySchema = {
  body: JoinVerifyBody,
  response: { 202: NoBody, ...errors(400, 403, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** A request waiting for the team's admins. */
export const JoinRequest = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  closed,
);
export type JoinRequest = Static<typeof JoinRequest>;
export const JoinRequestList = Type.Object({ requests: Type.Array(JoinRequest) }, closed);
export type JoinRequestList = Static<typeof JoinRequestList>;

const JoinRequestParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, closed);

export const listJoinRequestsSchema = {
  response: { 200: JoinRequestList, ...errors(400, 401, 403, 500) },
} satisfies RouteSchema;

/**
 * `POST /api/team/join-requests/:id/approve`: the person is mailed an invitation link (a seat taken).
 * 409 `seatLimit` when no seat is free, `alreadyMember` or `alreadyInvited`; 404 when no such request
 * waits.
 */
export const approveJoinRequestSchema = {
  params: JoinRequestParams,
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 409, 413, 415, 500) },
} satisfies RouteSchema;

/** `POST /api/team/join-requests/:id/decline`: the person is mailed a neutral note. */
export const declineJoinRequestSchema = {
  params: JoinRequestParams,
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;
