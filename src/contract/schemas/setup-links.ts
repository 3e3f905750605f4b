import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits';
import { errors, NoBody, type RouteSchema } from './common';

/**
 * Setup links (docs/decisions/setup-links.md): a team's owners send one to the person who runs their
 * company's identity provider, who opens it (`POST /account/setup/open`) and sets up the team's domains
 * and single sign-on connections with the short-lived token it answers. The elements import the types
 * only.
 */

const closed = { additionalProperties: false } as const;

export const SetupLinkState = Type.Enum(['pending', 'used', 'expired', 'revoked']);

/** A setup link as the team's owners see it; its token is never shown again. */
export const SetupLink = Type.Object(
  {
    id: Type.String(),
    /** The IT contact's address: where the link was mailed. */
    email: Type.String(),
    /** `used`: opened, and from then on bound to the browser that opened it. */
    state: SetupLinkState,
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time' }),
    openedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    /** The owner who sent it; null once they have left the team. */
    createdBy: Type.Union([Type.Object({ name: Type.String(), email: Type.String() }, closed), Type.Null()]),
  },
  closed,
);
export type SetupLink = Static<typeof SetupLink>;

export const SetupLinkList = Type.Object({ links: Type.Array(SetupLink) }, closed);
export type SetupLinkList = Static<typeof SetupLinkList>;

export const SetupLinkBody = Type.Object(
  { email: Type.String({ format: 'email', maxLength: LIMITS.email }) },
  closed,
);
export type SetupLinkBody = Static<typeof SetupLinkBody>;

const SetupLinkParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, closed);

export const listSetupLinksSchema = {
  response: { 200: SetupLinkList, ...errors(400, 401, 403, 500) },
} satisfies RouteSchema;

/** 400 `invalidEmail` at `email`; the link goes out by mail only. */
export const createSetupLinkSchema = {
  body: SetupLinkBody,
  response: { 201: SetupLink, ...errors(400, 401, 403, 413, 415, 500) },
} satisfies RouteSchema;

/** 404 when the team has no such link, or it was revoked already. */
export const revokeSetupLinkSchema = {
  params: SetupLinkParams,
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

export const OpenSetupBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, closed);
export type OpenSetupBody = Static<typeof OpenSetupBody>;

/** The opened link: a token for the team's domain and connection calls, and whose they are. */
export const OpenSetupResult = Type.Object(
  {
    accessToken: Type.String(),
    /** Seconds the token lives; open again (from the same browser) for a new one. */
    expiresIn: Type.Integer(),
    /** When the link itself stops working. */
    linkExpiresAt: Type.String({ format: 'date-time' }),
    email: Type.String(),
    team: Type.Object({ name: Type.String(), displayName: Type.String() }, closed),
  },
  closed,
);
export type OpenSetupResult = Static<typeof OpenSetupResult>;

/**
 * Why a setup link no longer opens: `used` — opened in another browser; `invalid` — no such link (a
 * wrong token learns nothing more).
 */
export const SetupGoneReason = Type.Enum(['used', 'revoked', 'expired', 'invalid']);
export type SetupGoneReason = Static<typeof SetupGoneReason>;

export const SetupGoneBody = Type.Object(
  { message: Type.String(), code: Type.Literal('gone'), reason: SetupGoneReason },
  closed,
);
export type SetupGoneBody = Static<typeof SetupGoneBody>;

export const openSetupLinkSchema = {
  body: OpenSetupBody,
  response: { 200: OpenSetupResult, 410: SetupGoneBody, ...errors(400, 403, 413, 415, 429, 500) },
} satisfies RouteSchema;
