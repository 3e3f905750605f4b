import { Type } from 'typebox';
import { errors, HtmlReply, NoBody, type RouteSchema } from './common';

/**
 * A file's bytes or stream, sent as they are: Fastify runs only objects through the serialiser, so this
 * schema describes the answer and changes nothing in it.
 */
export const FileReply = Type.Unsafe<Uint8Array>(Type.String({ description: "a file's bytes" }));

/**
 * `GET /`, `/login`, `/manage`, … (`config.page`): the portal page. Pages read nothing of the request
 * (not even the NUL rule applies), so they answer 200 or fail.
 */
export const portalPageSchema = {
  response: { 200: HtmlReply, ...errors(500) },
} satisfies RouteSchema;

/** `GET /favicon.ico`: the SVG icon. */
export const faviconSchema = {
  response: { 200: FileReply, ...errors(400, 500) },
} satisfies RouteSchema;

/**
 * @fastify/static's file routes (`/dist/*`, `/demo/*`): the file (206 a range of it), 304 while the
 * ETag holds, and the errors of reading it: 400 a bad path, 403 a forbidden one, 412 a failed
 * precondition, 416 an unsatisfiable range. A missing file is the not-found answer (no route's).
 */
export const staticFileSchema = {
  response: { 200: FileReply, 206: FileReply, 304: NoBody, ...errors(400, 403, 412, 416, 500) },
} satisfies RouteSchema;

/** `GET /dist/*` while the bundle is not built: 503 with how to build it. */
export const unbuiltSchema = {
  response: { ...errors(400, 500, 503) },
} satisfies RouteSchema;

/**
 * `GET /demo/outbox` (demo mode, loopback only): the reset mail written to the outbox; anyone else gets
 * the 404 of an unknown address.
 */
export const outboxSchema = {
  response: { 200: HtmlReply, ...errors(400, 404, 500) },
} satisfies RouteSchema;
