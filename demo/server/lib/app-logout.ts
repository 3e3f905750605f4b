import type { FastifyBaseLogger } from 'fastify';
import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import type { Repositories } from '../db/repositories';
import type { Clock } from './clock';
import type { OpenIdProvider, PortalSessionOf } from './openid-provider';

/**
 * Back-channel logout (OpenID Connect Back-Channel Logout 1.0) when a portal session ends, whichever
 * way: each provider session records the portal session that finished its login, and the database
 * marks it when that session ends (migration 012's triggers); the marked provider sessions, their
 * grants and tokens are deleted and every app that took part is sent a logout token.
 * docs/decisions/openid-provider.md.
 */

/** What a provider session keeps that the logout needs (oidc-provider's Session payload). */
interface EndedSession {
  accountId?: string;
  authorizations?: Record<string, { sid?: string; grantId?: string }>;
}

/** The provider's client sends the logout token itself (its typings leave the method out). */
type LogoutClient = Client & { backchannelLogout(sub: string, sid: string): Promise<void> };

/** The provider routes after which its session stands on the request's portal session. */
const LOGIN_ROUTES = new Set(['authorization', 'resume', 'end_session_confirm']);

/**
 * A provider middleware: once a sign-in (or a code issued from an existing provider session) is
 * answered, the provider session is bound to the browser's portal session of the same user.
 */
export function bindPortalSession(repos: Repositories, portalSession: PortalSessionOf) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    if (!LOGIN_ROUTES.has(ctx.oidc?.route ?? '')) return;
    const session = ctx.oidc.session;
    if (!session?.accountId) return;
    const portal = await portalSession(ctx.get('cookie') || undefined);
    if (portal?.user_id === session.accountId)
      await repos.oidcModels.linkPortalSession(session.uid, portal.public_id);
  };
}

export interface AppLogoutDeps {
  repos: Repositories;
  clock: Clock;
  oidc: OpenIdProvider;
  log: FastifyBaseLogger;
}

/**
 * End the provider sessions whose portal session has ended: their grants (refresh and access tokens,
 * codes) go first, in the database, so every node refuses them; then each app that took part and
 * registered a `backchannel_logout_uri` is sent its logout token. A failing or slow app (the provider
 * gives it 2.5 s) is logged and never fails the caller; the sessions are taken in one statement, so
 * one node sends each logout, once.
 */
export async function endAppSessions({ repos, clock, oidc, log }: AppLogoutDeps): Promise<void> {
  const ended = await repos.oidcModels.takeEndedSessions(clock.now());
  if (ended.length === 0) return;
  const provider = oidc.current();
  const sends: Promise<void>[] = [];
  for (const payload of ended) {
    const { accountId, authorizations = {} } = JSON.parse(payload) as EndedSession;
    for (const [clientId, { sid, grantId }] of Object.entries(authorizations)) {
      if (grantId) await repos.oidcModels.revokeGrant(grantId);
      const client = (await provider.Client.find(clientId)) as LogoutClient | undefined;
      if (!client?.backchannelLogoutUri || !accountId || !sid) continue;
      sends.push(
        client.backchannelLogout(accountId, sid).catch((error: unknown) => {
          log.warn({ err: error, clientId }, 'back-channel logout failed');
        }),
      );
    }
  }
  await Promise.all(sends);
}
