import type { Static } from 'typebox';
import type {
  ActivityEvent as ActivityEventSchema,
  ActivityPage as ActivityPageSchema,
  EndOthersReply,
  SessionEntry as SessionEntrySchema,
  SessionList,
} from '../contract/schemas/sessions';
import type {
  DeleteAccountBody,
  EmailChangeBody,
  EmailChangeReply,
  EmailLinkBody,
  EmailLinkCheckBody,
  EmailLinkReply,
  EmailStatusReply,
  PendingEmail,
} from '../contract/schemas/account-lifecycle';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// The signed-in user's own account: sessions and the security log. The types are the server's schemas,
// imported as types only (see endpoints.ts).

export type SessionEntry = Static<typeof SessionEntrySchema>;
export type ActivityEvent = Static<typeof ActivityEventSchema>;
export type ActivityPage = Static<typeof ActivityPageSchema>;

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);

/** GET /api/user/sessions: the caller's live sessions, newest first, `current` marking this one. */
export async function getSessions(ctx: ApiContext): Promise<SessionEntry[]> {
  const list = await request<Static<typeof SessionList>>(ctx, at(ctx, '/api/user/sessions'));
  return list.sessions;
}

/** DELETE /api/user/sessions/:id: 404 `notFound` (already ended), 409 `current`. */
export function endSession(ctx: ApiContext, id: string): Promise<void> {
  return request<void>(ctx, at(ctx, `/api/user/sessions/${encodeURIComponent(id)}`), { method: 'DELETE' });
}

/** POST /api/user/sessions/end-others: how many sessions were ended. */
export async function endOtherSessions(ctx: ApiContext): Promise<number> {
  const reply = await request<Static<typeof EndOthersReply>>(ctx, at(ctx, '/api/user/sessions/end-others'), {
    method: 'POST',
  });
  return reply.ended;
}

/** GET /api/user/activity: a page of the security log, newest first; `next` the following page's cursor. */
export function getActivity(ctx: ApiContext, cursor?: string | null, limit = 20): Promise<ActivityPage> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor) query.set('cursor', cursor);
  return request<ActivityPage>(ctx, at(ctx, `/api/user/activity?${query}`));
}

/** POST /api/user/email: 202 `{pendingEmail}`; 400 `invalidEmail`, `sameEmail`, `passwordRequired`, `invalidPassword`; 403 `reauthRequired`; 409 `emailTaken`. */
export async function requestEmailChange(ctx: ApiContext, body: EmailChangeBody): Promise<string> {
  const reply = await request<EmailChangeReply>(ctx, at(ctx, '/api/user/email'), {
    method: 'POST',
    json: body,
  });
  return reply.pendingEmail;
}

export type { PendingEmail };

/** GET /api/user/email: the change waiting for its confirmation link, or null. */
export async function getPendingEmail(ctx: ApiContext): Promise<PendingEmail | null> {
  const reply = await request<EmailStatusReply>(ctx, at(ctx, '/api/user/email'));
  return reply.pending;
}

/** DELETE /api/user/email: cancel the pending change; 404 `notFound` when none is waiting. */
export function cancelEmailChange(ctx: ApiContext): Promise<void> {
  return request<void>(ctx, at(ctx, '/api/user/email'), { method: 'DELETE' });
}

/** POST /api/user/email/check: resolves when the link is still good; 410 `gone` when it is not. */
export function checkEmailLink(ctx: ApiContext, body: EmailLinkCheckBody): Promise<void> {
  return request<void>(ctx, at(ctx, '/api/user/email/check'), { method: 'POST', json: body });
}

/** POST /api/user/email/confirm or /undo (the links' fields): the account's address afterwards. */
export async function answerEmailLink(
  ctx: ApiContext,
  action: 'confirm' | 'undo',
  body: EmailLinkBody,
): Promise<string> {
  const reply = await request<EmailLinkReply>(ctx, at(ctx, `/api/user/email/${action}`), {
    method: 'POST',
    json: body,
  });
  return reply.email;
}

/** DELETE /api/user: 204; 400 `passwordRequired`, `invalidPassword`; 403 `reauthRequired`; 409 `lastOwner`. */
export function deleteAccount(ctx: ApiContext, body: DeleteAccountBody): Promise<void> {
  return request<void>(ctx, at(ctx, '/api/user'), { method: 'DELETE', json: body });
}
