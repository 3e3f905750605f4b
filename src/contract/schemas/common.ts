import { Type, type TSchema } from 'typebox';

/**
 * Every refusal and failure: a sentence, and for the answers a screen acts on a stable `code` (a
 * password rule, `confirmMismatch`) and the `field` it concerns. 5xx answers say
 * `internal server error` and nothing more.
 */
export const ErrorReply = Type.Object(
  {
    message: Type.String(),
    code: Type.Optional(Type.String()),
    field: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** `{message}`: the answer of a call that only reports what it did. */
export const MessageReply = Type.Object({ message: Type.String() }, { additionalProperties: false });

/**
 * An answer without a body: a redirect (the address is in `Location`), a 204, a 304. Its type is
 * `undefined`, so a handler sends it as `reply.code(204).send()`.
 */
export const NoBody = Type.Unsafe<undefined>(Type.Null({ description: 'no body' }));

/** An HTML page, sent as it is (a string is never run through the serialiser). */
export const HtmlReply = Type.String({ description: 'an HTML page' });

/** The optional anti-forgery field of a form post (the token may come as a header instead). */
export const XsrfField = Type.Optional(Type.String({ maxLength: 400 }));

type Errors<Status extends number> = { [Code in Status]: typeof ErrorReply };

/**
 * `ErrorReply` for each status, to spread into a route's `response`. Besides the statuses its handler
 * answers, a route lists the ones the plugins answer for it (test/server/response-schemas.test.ts
 * checks them from the route's declarations):
 * - every route: 400 (input its schema refuses, a NUL character) and 500;
 * - a `POST`, `PUT` or `DELETE`: 403 (anti-forgery), 413 (body too large), 415 (body type);
 * - `auth: 'bearer'`: 401; `auth: 'session'`: 401, or 303 to sign in when it names `config.signIn`;
 * - a call that hashes a password: 503 (`Retry-After`).
 */
export function errors<const Status extends number>(...statuses: Status[]): Errors<Status> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorReply])) as Errors<Status>;
}

/** A route's schema: request parts as needed, and a response schema for every status it answers. */
export interface RouteSchema {
  body?: TSchema;
  querystring?: TSchema;
  params?: TSchema;
  response: Record<number, TSchema>;
}
