import type {
  AppScope,
  ConnectedApp,
  ConnectedApps,
  ConsentDetails,
  ConsentReply,
} from '../contract/schemas/apps';
import { request, type ApiContext } from './client';
import { issuerUrl } from './url';

// A third-party app's consent and the user's connected apps. The types are the server's schemas,
// imported as types only (see endpoints.ts).

export type { AppScope, ConnectedApp, ConsentDetails };

const at = (ctx: ApiContext, path: string) => issuerUrl(ctx.issuer, path, location.origin);
const consentAt = (ctx: ApiContext, uid: string) => at(ctx, `/api/oidc/consent/${encodeURIComponent(uid)}`);

/** GET /api/oidc/consent/:uid: what the app asks of the signed-in user; 404 `notFound` (not theirs, answered, expired). */
export function getConsent(ctx: ApiContext, uid: string): Promise<ConsentDetails> {
  return request<ConsentDetails>(ctx, consentAt(ctx, uid));
}

/** POST /api/oidc/consent/:uid: the user's answer; where the browser goes on (back through the provider to the app). */
export async function answerConsent(ctx: ApiContext, uid: string, allow: boolean): Promise<string> {
  const reply = await request<ConsentReply>(ctx, consentAt(ctx, uid), { method: 'POST', json: { allow } });
  return reply.redirectTo;
}

/** GET /api/user/apps: the apps the user has signed in to or allowed, the most recently used first. */
export async function getConnectedApps(ctx: ApiContext): Promise<ConnectedApp[]> {
  return (await request<ConnectedApps>(ctx, at(ctx, '/api/user/apps'))).apps;
}

/** DELETE /api/user/apps/:id: remove the app's access; 404 `notFound` when it had none. */
export function removeApp(ctx: ApiContext, id: string): Promise<void> {
  return request<void>(ctx, at(ctx, `/api/user/apps/${encodeURIComponent(id)}`), { method: 'DELETE' });
}
