import { Type } from 'typebox';
import { errors, HtmlReply, NoBody, type RouteSchema } from './common';

/** `GET /oidc/interaction/:uid`: the provider's login handed to the portal, and finished from it. */
export const interactionSchema = {
  params: Type.Object(
    { uid: Type.String({ minLength: 1, maxLength: 100 }) },
    { additionalProperties: false },
  ),
  // 400: an expired or foreign sign-in request, a page in the browser's language.
  response: { 303: NoBody, 400: HtmlReply, ...errors(500) },
} satisfies RouteSchema;

/** `GET /provider-pages.css`: the stylesheet of the provider's plain pages, in the deployment's brand. */
export const plainPageCssSchema = {
  response: { 200: Type.String({ description: 'a stylesheet' }), ...errors(400, 500) },
} satisfies RouteSchema;
