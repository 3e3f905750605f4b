import { Type } from 'typebox';
import { errors, NoBody, type RouteSchema } from './common';

/** `GET /oidc/interaction/:uid`: the provider's login handed to the portal, and finished from it. */
export const interactionSchema = {
  params: Type.Object(
    { uid: Type.String({ minLength: 1, maxLength: 100 }) },
    { additionalProperties: false },
  ),
  response: { 303: NoBody, ...errors(400, 500) },
} satisfies RouteSchema;
