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

/**
 * Every other address under `/oidc`: the provider's own endpoints (authorization, token, revocation,
 * introspection, device, end_session, keys, its discovery), answered by the provider in the formats
 * the OpenID and OAuth specifications give them — JSON, its plain pages or a redirect.
 */
// Never serialised here: the provider writes its own answer.
const ProviderAnswer = Type.String({ description: "the provider's answer: JSON, a page, or a redirect" });
export const providerSchema = {
  // 429: a user code tried too often from one address (the server's own page, before the provider).
  response: Object.fromEntries(
    [200, 204, 302, 303, 400, 401, 403, 404, 413, 415, 429, 500].map((status) => [status, ProviderAnswer]),
  ),
} satisfies RouteSchema;
