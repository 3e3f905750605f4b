import { Type } from 'typebox';
import { errors, NoBody, XsrfField, type RouteSchema } from './common';

/** `GET /policy/raw` (bearer): `showinternal=true` shows the internal policies, to the team's owners. */
export const PoliciesQuery = Type.Object(
  { showinternal: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])) },
  { additionalProperties: false },
);
/** A policy definition (spec §3): its name is the scope a token can carry. */
export const Policy = Type.Object(
  { name: Type.String(), description: Type.String(), scopes: Type.Array(Type.String()) },
  { additionalProperties: false },
);
export const PoliciesReply = Type.Array(Policy);
export const policiesSchema = {
  querystring: PoliciesQuery,
  response: { 200: PoliciesReply, ...errors(400, 401, 500) },
} satisfies RouteSchema;

/**
 * `POST /home/token` (session, form): an access token with the chosen policies as scopes, and an id
 * token, sent to the success page in a 303's fragment. A browser's refusal is a 303 back to the form
 * (or to sign in); an API client's is a 400 or 401.
 */
export const HomeTokenBody = Type.Object(
  {
    __RequestVerificationToken: XsrfField,
    // One `scope` field per checked policy: a string, or an array when repeated.
    scope: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 100 }),
        Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 }),
      ]),
    ),
  },
  { additionalProperties: false },
);
export const homeTokenSchema = {
  body: HomeTokenBody,
  response: { 303: NoBody, ...errors(400, 401, 403, 413, 415, 500) },
} satisfies RouteSchema;
