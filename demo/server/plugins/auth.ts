import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import type { Session } from '../db/schema';
import { bearerCallerOf, type BearerCaller } from '../lib/bearer';
import { sessionOf } from './cookies';

declare module 'fastify' {
  interface FastifyRequest {
    /** The token's caller on a `bearer` route (set by the auth hook); read it with `callerOf`. */
    bearerCaller: BearerCaller | null;
    /** The live session on a `session` route (set by the auth hook); read it with `signedInSession`. */
    signedIn: Session | null;
  }
}

/** The caller of a `bearer` route. Throws (a 500) on a route that does not declare `auth: 'bearer'`. */
export function callerOf(request: FastifyRequest): BearerCaller {
  if (!request.bearerCaller) throw new Error(`${request.routeOptions.url}: not a bearer route`);
  return request.bearerCaller;
}

/** The session of a `session` route. Throws (a 500) on a route that does not declare `auth: 'session'`. */
export function signedInSession(request: FastifyRequest): Session {
  if (!request.signedIn) throw new Error(`${request.routeOptions.url}: not a session route`);
  return request.signedIn;
}

const requireBearer: preHandlerAsyncHookHandler = async (request, reply) => {
  const caller = await bearerCallerOf(request);
  if (!caller) {
    return reply
      .code(401)
      .header('WWW-Authenticate', `Bearer error="invalid_token"`)
      .send({ message: 'a valid access token is required' });
  }
  request.bearerCaller = caller;
};

const requireSession: preHandlerAsyncHookHandler = async (request, reply) => {
  const session = await sessionOf(request);
  if (!session) return refuseSession(request, reply);
  request.signedIn = session;
};

function refuseSession(request: FastifyRequest, reply: FastifyReply) {
  const signIn = request.routeOptions.config.signIn;
  const page = (request.headers.accept ?? '').includes('text/html');
  if (signIn && (page || !signIn.pagesOnly)) {
    return reply.redirect(`/login/team?${new URLSearchParams({ ReturnUrl: signIn.returnUrl })}`, 303);
  }
  return reply.code(401).send({ message: 'sign in first' });
}

const HOOKS = { bearer: requireBearer, session: requireSession } as const;

/**
 * The one place a route's caller is checked: each route declares `config.auth`, and this adds the
 * matching check as the route's last preHandler — after the body type and anti-forgery rules
 * (preValidation), the schema and the route's own preHandlers (an unknown provider is 404 before the
 * caller is asked who they are) — so handlers only read `callerOf` / `signedInSession`. Public routes
 * get no hook at all. A route that declares nothing makes the server refuse to start: checked once all
 * routes are in (`onReady`), since a plugin's own onRoute hook may declare its routes after this one
 * has seen them (plugins/pages.ts marks @fastify/static's file routes public that way).
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('bearerCaller', null);
  app.decorateRequest('signedIn', null);
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
    const auth = route.config?.auth;
    if (auth !== 'bearer' && auth !== 'session') return;
    const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [...own, HOOKS[auth]];
  });
  app.addHook('onReady', async () => {
    const undeclared = routes.filter((route) => route.config?.auth === undefined);
    if (undeclared.length) {
      const names = undeclared.map((route) => `${[route.method].flat().join(',')} ${route.url}`);
      throw new Error(
        `routes without config.auth (declare 'bearer', 'session' or 'none'): ${names.join('; ')}`,
      );
    }
  });
}
