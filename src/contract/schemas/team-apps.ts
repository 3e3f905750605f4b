import { Type, type Static } from 'typebox';
import { APP_KINDS, APP_URI_LIMITS } from '../app-uris';
import { LIMITS } from '../limits';
import { errors, NoBody, type RouteSchema } from './common';

const closed = { additionalProperties: false } as const;

export const AppKind = Type.Enum([...APP_KINDS]);
export type AppKind = Static<typeof AppKind>;

const Uri = Type.String({ maxLength: APP_URI_LIMITS.length });
const Uris = Type.Array(Uri, { maxItems: APP_URI_LIMITS.count });

/** A team's application as its admins see it (never its secret). */
export const TeamApp = Type.Object(
  {
    clientId: Type.String(),
    name: Type.String(),
    kind: AppKind,
    redirectUris: Type.Array(Type.String()),
    postLogoutRedirectUris: Type.Array(Type.String()),
    backchannelLogoutUri: Type.Union([Type.String(), Type.Null()]),
    /** It asks the user's consent (an app of someone else). */
    thirdParty: Type.Boolean(),
    disabled: Type.Boolean(),
    /** It has a secret (web and machine apps). */
    hasSecret: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  closed,
);
export type TeamApp = Static<typeof TeamApp>;

export const TeamAppList = Type.Object({ apps: Type.Array(TeamApp) }, closed);
export type TeamAppList = Static<typeof TeamAppList>;

/** An app with its secret in clear: shown once, when it is made or replaced (null for public apps). */
export const TeamAppWithSecret = Type.Object(
  { app: TeamApp, clientSecret: Type.Union([Type.String(), Type.Null()]) },
  closed,
);
export type TeamAppWithSecret = Static<typeof TeamAppWithSecret>;

/**
 * `POST /api/team/apps`: name (trimmed, 1–50 characters), kind, and the addresses its kind takes
 * (redirect URIs for web, single-page and native apps; none for device and machine apps).
 */
export const TeamAppBody = Type.Object(
  {
    name: Type.String({ maxLength: LIMITS.nameInput }),
    kind: AppKind,
    redirectUris: Type.Optional(Uris),
    postLogoutRedirectUris: Type.Optional(Uris),
    backchannelLogoutUri: Type.Optional(Type.Union([Uri, Type.Null()])),
    thirdParty: Type.Optional(Type.Boolean()),
  },
  closed,
);
export type TeamAppBody = Static<typeof TeamAppBody>;

/**
 * `PATCH /api/team/apps/:clientId`: what changes (the kind never does); `backchannelLogoutUri: null`
 * takes the address away.
 */
export const TeamAppPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: LIMITS.nameInput })),
    redirectUris: Type.Optional(Uris),
    postLogoutRedirectUris: Type.Optional(Uris),
    backchannelLogoutUri: Type.Optional(Type.Union([Uri, Type.Null()])),
    thirdParty: Type.Optional(Type.Boolean()),
    disabled: Type.Optional(Type.Boolean()),
  },
  { ...closed, minProperties: 1 },
);
export type TeamAppPatch = Static<typeof TeamAppPatch>;

const AppParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 200 }) }, closed);

export const listTeamAppsSchema = {
  response: { 200: TeamAppList, ...errors(400, 401, 403, 500) },
} satisfies RouteSchema;

/**
 * 400 `invalidName`, an address's problem (`invalidUri`, `insecureUri`, `fragmentUri`, `uriRequired`,
 * `uriNotAllowed`; for the back-channel logout URI `uriTooLong`, and `loopbackLogoutUri` where the server
 * does not post to this machine) with its `field`.
 */
export const createTeamAppSchema = {
  body: TeamAppBody,
  response: { 201: TeamAppWithSecret, ...errors(400, 401, 403, 413, 415, 500) },
} satisfies RouteSchema;

export const updateTeamAppSchema = {
  params: AppParams,
  body: TeamAppPatch,
  response: { 200: TeamApp, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/** A new secret: the old one stops at once. 404 also for an app without a secret (a public app). */
export const rotateTeamAppSecretSchema = {
  params: AppParams,
  response: { 200: TeamAppWithSecret, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

export const deleteTeamAppSchema = {
  params: AppParams,
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;
