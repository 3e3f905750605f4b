import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits';
import { errors, NoBody, type RouteSchema } from './common';

const closed = { additionalProperties: false } as const;

/** `POST /api/user/email`: ask to move the account to a new address (re-authenticated). */
export const EmailChangeBody = Type.Object(
  {
    newEmail: Type.String({ format: 'email', maxLength: LIMITS.email }),
    /** The current password; a user without one signed in within the last five minutes instead. */
    password: Type.Optional(Type.String({ maxLength: LIMITS.password })),
  },
  closed,
);
export type EmailChangeBody = Static<typeof EmailChangeBody>;
export const EmailChangeReply = Type.Object({ pendingEmail: Type.String() }, closed);
export type EmailChangeReply = Static<typeof EmailChangeReply>;
export const emailChangeSchema = {
  body: EmailChangeBody,
  response: { 202: EmailChangeReply, ...errors(400, 401, 403, 409, 413, 415, 500, 503) },
} satisfies RouteSchema;

/** `POST /api/user/email/confirm` and `/undo`: the link's two fields. */
export const EmailLinkBody = Type.Object(
  {
    change: Type.String({ minLength: 1, maxLength: 100 }),
    token: Type.String({ minLength: 1, maxLength: 100 }),
  },
  closed,
);
export type EmailLinkBody = Static<typeof EmailLinkBody>;
export const EmailLinkReply = Type.Object({ email: Type.String() }, closed);
export type EmailLinkReply = Static<typeof EmailLinkReply>;
export const emailLinkSchema = {
  body: EmailLinkBody,
  response: { 200: EmailLinkReply, ...errors(400, 403, 409, 410, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** `GET /api/user/email`: the caller's change waiting for its confirmation link, if any. */
export const PendingEmail = Type.Object(
  { newEmail: Type.String(), expiresAt: Type.String({ format: 'date-time' }) },
  closed,
);
export type PendingEmail = Static<typeof PendingEmail>;
export const EmailStatusReply = Type.Object({ pending: Type.Union([PendingEmail, Type.Null()]) }, closed);
export type EmailStatusReply = Static<typeof EmailStatusReply>;
export const emailStatusSchema = {
  response: { 200: EmailStatusReply, ...errors(400, 401, 500) },
} satisfies RouteSchema;

/** `DELETE /api/user/email`: cancel the pending change (404 when there is none). */
export const cancelEmailChangeSchema = {
  response: { 204: NoBody, ...errors(400, 401, 403, 404, 413, 415, 500) },
} satisfies RouteSchema;

/** `POST /api/user/email/check`: whether a mail's link is still good, without using it. */
export const EmailLinkCheckBody = Type.Object(
  {
    change: Type.String({ minLength: 1, maxLength: 100 }),
    token: Type.String({ minLength: 1, maxLength: 100 }),
    action: Type.Union([Type.Literal('confirm'), Type.Literal('undo')]),
  },
  closed,
);
export type EmailLinkCheckBody = Static<typeof EmailLinkCheckBody>;
export const emailLinkCheckSchema = {
  body: EmailLinkCheckBody,
  response: { 204: NoBody, ...errors(400, 403, 410, 413, 415, 429, 500) },
} satisfies RouteSchema;

/** `DELETE /api/user`: leave the team, deleting the account (re-authenticated). */
export const DeleteAccountBody = Type.Object(
  { password: Type.Optional(Type.String({ maxLength: LIMITS.password })) },
  closed,
);
export type DeleteAccountBody = Static<typeof DeleteAccountBody>;
export const deleteAccountSchema = {
  body: DeleteAccountBody,
  response: { 204: NoBody, ...errors(400, 401, 403, 409, 413, 415, 500, 503) },
} satisfies RouteSchema;
