import { Type, type Static } from 'typebox';

/**
 * Every 4xx answer: `message` (English, for API users and logs), `code` (a stable word a screen
 * translates instead of showing `message`) and `field` (the request field the message belongs to, so a
 * screen shows it there).
 */
export const ErrorBody = Type.Object({
  message: Type.String(),
  code: Type.Optional(Type.String()),
  field: Type.Optional(Type.String()),
});
export type ErrorBody = Static<typeof ErrorBody>;

/** The same error schema under each status a route may answer with it. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody])) as Record<S, typeof ErrorBody>;
}

/**
 * The refusals every JSON route can give before its handler runs: a bad body or query (400), a missing
 * or invalid token (401), the anti-forgery rule or a missing role (403), a body of another type (415).
 */
export const COMMON_ERRORS = [400, 401, 403, 415] as const;

/** 204 No Content: no body. */
export const NoContent = Type.Null();
