import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { DEMO_SERVER_CLIENT_ID, type Config } from './config';
import { cookiesOf } from './lib/cookies';
import { escapeHtml } from './lib/plain-page';

const COOKIE = 'acct_demo_server_app';
const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** One browser's visit to the app: its sign-in under way, then who signed in and how it ended. */
interface Visit {
  pending?: { verifier: string; state: string; nonce: string };
  user?: { sub: string; sid?: string; name?: string; email?: string; team?: string; idToken: string };
  /** When the portal told the app, by back-channel logout, that this sign-in ended. */
  endedByPortal?: Date;
}

/**
 * The demo's server-side app on the partner origin, under /server-app: a confidential client of the
 * OpenID Provider written with openid-client. It signs in with the code flow and PKCE, keeps who signed
 * in on the server, signs out through end_session, and hears by back-channel logout when the portal
 * session behind a sign-in ends elsewhere (the header's Sign out, the sessions screen, …). Its visits
 * live in memory: a demo, not a pattern for storage.
 */
export async function serverApp(app: FastifyInstance, config: Config, origin: string): Promise<void> {
  const registered = config.oidcClients.find((c) => c.client_id === DEMO_SERVER_CLIENT_ID);
  if (!registered?.client_secret) return;
  const secret = registered.client_secret;
  const home = `${origin}/server-app/`;
  const issuer = config.publicUrl;
  const visits = new Map<string, Visit>();
  const keys = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks`));
  let discovered: client.Configuration | undefined;
  // Discovery waits for the first sign-in: the identity server may still be starting.
  const provider = async () =>
    (discovered ??= await client.discovery(
      new URL(issuer),
      DEMO_SERVER_CLIENT_ID,
      { id_token_signed_response_alg: 'EdDSA' },
      client.ClientSecretBasic(secret),
      new URL(issuer).protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
    ));

  await app.register(fastifyCookie, { hook: false });
  await app.register(fastifyFormbody);

  const visitOf = (request: FastifyRequest, reply: FastifyReply): Visit => {
    let id = cookiesOf(request)[COOKIE];
    if (!id || !visits.has(id)) {
      id = randomBytes(24).toString('base64url');
      visits.set(id, {});
      reply.setCookie(COOKIE, id, { path: '/server-app', httpOnly: true, sameSite: 'lax' });
    }
    return visits.get(id)!;
  };

  app.get('/server-app/', async (request, reply) => {
    const visit = visitOf(request, reply);
    return reply.type('text/html; charset=utf-8').send(page(visit));
  });

  app.get('/server-app/login', async (request, reply) => {
    const visit = visitOf(request, reply);
    const pending = {
      verifier: client.randomPKCECodeVerifier(),
      state: client.randomState(),
      nonce: client.randomNonce(),
    };
    visit.pending = pending;
    const address = client.buildAuthorizationUrl(await provider(), {
      redirect_uri: `${origin}/server-app/callback`,
      scope: 'openid profile email',
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return reply.redirect(address.href, 303);
  });

  app.get('/server-app/callback', async (request, reply) => {
    const visit = visitOf(request, reply);
    const pending = visit.pending;
    if (!pending) return reply.redirect(home, 303);
    visit.pending = undefined;
    const tokens = await client.authorizationCodeGrant(await provider(), new URL(request.url, origin), {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
    });
    const claims = tokens.claims()!;
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    visit.user = {
      sub: claims.sub,
      sid: text(claims.sid),
      name: text(claims.name),
      email: text(claims.email),
      team: text(claims.team),
      idToken: tokens.id_token!,
    };
    visit.endedByPortal = undefined;
    return reply.redirect(home, 303);
  });

  app.get('/server-app/logout', async (request, reply) => {
    const visit = visitOf(request, reply);
    const user = visit.user;
    visit.user = undefined;
    if (!user) return reply.redirect(home, 303);
    const address = client.buildEndSessionUrl(await provider(), {
      id_token_hint: user.idToken,
      post_logout_redirect_uri: home,
    });
    return reply.redirect(address.href, 303);
  });

  // OpenID Connect Back-Channel Logout 1.0 §2.6: a signed logout token naming the session (sid) or the
  // user (sub); the sign-ins it names end here. 400 for a token that does not verify.
  app.post<{ Body: { logout_token?: string } }>('/server-app/backchannel-logout', async (request, reply) => {
    try {
      const { payload } = await jwtVerify(String(request.body?.logout_token), keys, {
        issuer,
        audience: DEMO_SERVER_CLIENT_ID,
        typ: 'logout+jwt',
      });
      const events = payload.events as Record<string, unknown> | undefined;
      if (typeof events?.[LOGOUT_EVENT] !== 'object' || 'nonce' in payload) throw new Error('not a logout');
      for (const visit of visits.values()) {
        const user = visit.user;
        if (!user) continue;
        if (payload.sid ? user.sid === payload.sid : user.sub === payload.sub) {
          visit.user = undefined;
          visit.endedByPortal = new Date();
        }
      }
      return reply.header('Cache-Control', 'no-store').code(200).send();
    } catch {
      return reply.code(400).send({ error: 'invalid_request' });
    }
  });
}

function page(visit: Visit): string {
  const user = visit.user;
  const rows = user
    ? [
        ['Name', user.name],
        ['E-mail', user.email],
        ['Team', user.team],
        ['Session (sid)', user.sid],
      ]
        .map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value ?? '')}</dd>`)
        .join('')
    : '';
  const status = user
    ? 'Signed in through the portal.'
    : visit.endedByPortal
      ? `The portal told this app at ${visit.endedByPortal.toISOString()} that your session ended (back-channel logout).`
      : 'Not signed in to this app.';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Server app — demo</title><link rel="stylesheet" href="/assets/foreign.css"></head><body><main><h1>Server app</h1><p>A confidential app on the server of another origin (openid-client): it keeps who signed in on its server and hears from the portal when that sign-in ends.</p><p id="server-app-status" role="status">${escapeHtml(status)}</p>${user ? `<dl>${rows}</dl><p><a href="/server-app/logout">Sign out of this app</a></p>` : '<p><a href="/server-app/login">Sign in with the portal</a></p>'}</main></body></html>`;
}
