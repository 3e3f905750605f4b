import { Type, type Static } from 'typebox';
import { errors, NoBody, type RouteSchema } from './common';

const closed = { additionalProperties: false } as const;

/**
 * What an app may ask for, as the consent screen and the connected apps screen name it: the OpenID
 * scopes beyond `openid` (which only says who the user is). `offline_access`: stays signed in.
 */
export const AppScope = Type.Union([
  Type.Literal('profile'),
  Type.Literal('email'),
  Type.Literal('offline_access'),
]);
export type AppScope = Static<typeof AppScope>;

const InteractionParams = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 100 }) }, closed);

/** `GET /api/oidc/consent/:uid`: the question the signed-in user is asked for a third-party app. */
export const ConsentDetails = Type.Object(
  {
    /** The app's name (its `client_name`, else its client id). */
    app: Type.String(),
    /** The team the user signs in with (its display name). */
    team: Type.String(),
    /** What the app asks for, beyond who the user is. */
    scopes: Type.Array(AppScope),
  },
  closed,
);
export type ConsentDetails = Static<typeof ConsentDetails>;
export const consentDetailsSchema = {
  params: InteractionParams,
  // 403: a third-party app's token; 404: no such question for this user (expired, answered, someone else's).
  response: { 200: ConsentDetails, ...errors(400, 401, 403, 404, 500) },
} satisfies RouteSchema;

/** `POST /api/oidc/consent/:uid`: the user's answer; the browser goes on to `redirectTo`. */
export const ConsentAnswer = Type.Object({ allow: Type.Boolean() }, closed);
export type ConsentAnswer = Static<typeof ConsentAnswer>;
export const ConsentReply = Type.Object({ redirectTo: Type.String() }, closed);
export type ConsentReply = Static<typeof ConsentReply>;
export const consentAnswerSchema = {
  params: InteractionParams,
  body: ConsentAnswer,
  response: { 200: ConsentReply, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/** `GET /api/user/apps`: the apps the user has signed in to or allowed, the most recently used first. */
export const ConnectedApp = Type.Object(
  {
    /** The app's client id: the handle to remove it by. */
    id: Type.String(),
    name: Type.String(),
    /** An app of someone else (it asked for consent), not one of the deployment's own. */
    thirdParty: Type.Boolean(),
    scopes: Type.Array(AppScope),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  closed,
);
export type ConnectedApp = Static<typeof ConnectedApp>;
export const ConnectedApps = Type.Object({ apps: Type.Array(ConnectedApp) }, closed);
export type ConnectedApps = Static<typeof ConnectedApps>;
export const connectedAppsSchema = {
  response: { 200: ConnectedApps, ...errors(400, 401, 403, 500) },
} satisfies RouteSchema;

/** `DELETE /api/user/apps/:id`: remove the app's access (its grants and refresh tokens). */
export const removeAppSchema = {
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }, closed),
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;
