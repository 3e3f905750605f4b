import { Type } from 'typebox';
import { LIMITS } from '../limits';
import { errors, type RouteSchema } from './common';

/** `GET /connect/userinfo` (bearer): who the access token belongs to (spec §3). */
export const UserinfoReply = Type.Object(
  {
    sub: Type.String(),
    name: Type.String(),
    email: Type.String(),
    /** ISO 8601. */
    created_at: Type.String(),
    team: Type.String(),
    team_id: Type.String(),
    /** The names of the user's groups in their team (empty when none). */
    groups: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export const userinfoSchema = {
  response: { 200: UserinfoReply, ...errors(400, 401, 500) },
} satisfies RouteSchema;

/** `GET /api/user/permissions` (bearer): each permission the server knows, granted or not. */
export const PermissionsReply = Type.Record(Type.String(), Type.Boolean());
export const permissionsSchema = {
  response: { 200: PermissionsReply, ...errors(400, 401, 500) },
} satisfies RouteSchema;

/**
 * `POST /api/user` (bearer): the user's name. The schema only bounds the input; the name rule (trimmed,
 * 1–50 characters, no control characters) answers 400 with its own message.
 */
export const RenameBody = Type.Object(
  { name: Type.String({ maxLength: LIMITS.nameInput }) },
  { additionalProperties: false },
);
export const RenameReply = Type.Object({ name: Type.String() }, { additionalProperties: false });
export const renameSchema = {
  body: RenameBody,
  response: { 200: RenameReply, ...errors(400, 401, 403, 413, 415, 500) },
} satisfies RouteSchema;

/** `GET /api/switcher` (bearer): the suite dashboard's address, or null. */
export const SwitcherReply = Type.Object(
  { dashboard: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
export const switcherSchema = {
  response: { 200: SwitcherReply, ...errors(400, 401, 500) },
} satisfies RouteSchema;
