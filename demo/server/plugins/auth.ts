import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import type { Actor } from '../db/audit';
import type { DirectoryCaller } from '../db/directories';
import type { Session } from '../db/schema';
import { isAdmin, SETUP_ACTOR_PREFIX } from '../../../src/contract/team-rules';
import { bearerCallerOf, bearerClaimsOf, type BearerCaller } from '../lib/bearer';
import { claimsSetupType } from '../lib/tokens';
import { sha256 } from '../lib/crypto';
import { DIRECTORY_TOKEN_PREFIX, scimError } from '../lib/scim';
import { sessionOf } from '../lib/session';

/**
 * Who acts on a team on an admin route: its team, and the caller as the audit trail names them —
 * an admin, or on a `setup` route the IT contact a setup link was sent to.
 */
export interface TeamActor {
  teamId: string;
  teamName: string;
  /** The caller as the audit trail names them, and whether they are an OWNER. */
  actor: Actor & { owner: boolean };
  /** The setup link the caller came through; null for an admin. */
  setupLinkId: string | null;
}

/** A team admin calling an admin route: the token's caller and what the audit trail records of them. */
export interface TeamAdmin extends TeamActor {
  caller: BearerCaller;
}

/** How the audit trail names the IT contact of a setup link (the screens show their address). */
export const SETUP_ACTOR_NAME = 'IT contact';

/** A team API client calling a `client` route (a client credentials token). */
export interface ApiClientCaller {
  clientId: string;
  teamId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The token's caller on a `bearer` route (set by the auth hook); read it with `callerOf`. */
    bearerCaller: BearerCaller | null;
    /** The live session on a `session` route (set by the auth hook); read it with `signedInSession`. */
    signedIn: Session | null;
    /** The admin on a route with a `role` (set by the auth hook); read it with `adminOf`. */
    teamAdmin: TeamAdmin | null;
    /** The admin or setup link's IT contact on a route with a `role` (set by the auth hook); `teamActorOf`. */
    teamActor: TeamActor | null;
    /** The API client on a `client` route (set by the auth hook); read it with `clientOf`. */
    apiClient: ApiClientCaller | null;
    /** The team's directory on a `directory` route (set by the auth hook); read it with `directoryOf`. */
    directoryCaller: DirectoryCaller | null;
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

/** The admin calling a route that declares a `role`. Throws (a 500) on any other route. */
export function adminOf(request: FastifyRequest): TeamAdmin {
  if (!request.teamAdmin) throw new Error(`${request.routeOptions.url}: not a route with a role`);
  return request.teamAdmin;
}

/**
 * Who acts on the team on a route that declares a `role`: its admin, or on a `setup` route the IT
 * contact of a setup link. Throws (a 500) on any other route.
 */
export function teamActorOf(request: FastifyRequest): TeamActor {
  if (!request.teamActor) throw new Error(`${request.routeOptions.url}: not a route with a role`);
  return request.teamActor;
}

/** The API client calling a `client` route. Throws (a 500) on any other route. */
export function clientOf(request: FastifyRequest): ApiClientCaller {
  if (!request.apiClient) throw new Error(`${request.routeOptions.url}: not a client route`);
  return request.apiClient;
}

const BEARER = 'Bearer ';
/** The directory calling a `directory` route (SCIM). Throws (a 500) on any other route. */
export function directoryOf(request: FastifyRequest): DirectoryCaller {
  if (!request.directoryCaller) throw new Error(`${request.routeOptions.url}: not a directory route`);
  return request.directoryCaller;
}

const refuseToken = (reply: FastifyReply) =>
  reply
    .code(401)
    .header('WWW-Authenticate', `Bearer error="invalid_token"`)
    .send({ message: 'a valid access token is required' });

const requireBearer: preHandlerAsyncHookHandler = async (request, reply) => {
  const caller = await bearerCallerOf(request);
  if (!caller) return refuseToken(reply);
  request.bearerCaller = caller;
};

/**
 * The admin routes' check (design §7): the caller must be an admin (OWNER or ADMIN) — or, for `owner`
 * routes, an OWNER — of the team their token names; every id the route then takes is looked up in that
 * team only. A member without the role gets 403 with a code the screens translate.
 */
const requireRole: preHandlerAsyncHookHandler = async (request, reply) => {
  const caller = callerOf(request);
  const permissions = await request.server.services.repos.users.permissionsOf(caller.user.id);
  const owner = permissions.has('OWNER');
  if (request.routeOptions.config.role === 'owner' && !owner)
    return reply.code(403).send({ message: 'only a team owner may do this', code: 'notOwner' });
  if (!isAdmin(permissions))
    return reply.code(403).send({ message: 'team admin rights are required', code: 'notAdmin' });
  request.teamAdmin = {
    caller,
    teamId: caller.user.team_id,
    teamName: caller.teamName,
    actor: { id: caller.user.id, name: caller.user.name, email: caller.user.email, owner },
    setupLinkId: null,
  };
  request.teamActor = request.teamAdmin;
};

/**
 * A `setup` route's check: a setup link's token (its header says so) is checked as one — signature,
 * type, audience, time, and its link still open for the token's team, read on every call so a revoked
 * or expired link stops at once — and anything else as an admin's access token. Each kind is verified
 * by its own rules only, so neither passes for the other.
 */
const requireAdminOrSetup: preHandlerAsyncHookHandler = async function (request, reply) {
  const header = request.headers.authorization;
  const token = header?.startsWith(BEARER) ? header.slice(BEARER.length) : null;
  if (!token || !claimsSetupType(token)) {
    await requireBearer.call(this, request, reply);
    if (reply.sent) return reply;
    return requireRole.call(this, request, reply);
  }
  const { tokens, repos, clock } = request.server.services;
  const claims = await tokens.verifySetupToken(token);
  const link = claims && (await repos.setupLinks.live(claims.linkId, claims.teamId, clock.now()));
  if (!link) return refuseToken(reply);
  request.teamActor = {
    teamId: link.team_id,
    teamName: link.team_name,
    actor: { id: `${SETUP_ACTOR_PREFIX}${link.id}`, name: SETUP_ACTOR_NAME, email: link.email, owner: false },
    setupLinkId: link.id,
  };
};

/**
 * A team API client's token (RFC 6749 §4.4): a valid access token that carries the route's scope
 * (403 `insufficient_scope` otherwise, RFC 6750 §3.1 — a member's token never does) and names a client
 * that still exists for the token's team (401 otherwise).
 */
const requireClient: preHandlerAsyncHookHandler = async (request, reply) => {
  const claims = await bearerClaimsOf(request);
  if (!claims) return refuseToken(reply);
  const scope = request.routeOptions.config.scope;
  if (!scope || !claims.scope.split(' ').includes(scope)) {
    return reply
      .code(403)
      .header('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${scope ?? ''}"`)
      .send({ message: `the token lacks the scope ${scope ?? ''}`, code: 'insufficientScope' });
  }
  const { teamApps } = request.server.services.repos;
  if (claims.sub !== claims.client_id || !(await teamApps.liveIn(claims.client_id, claims.team_id)))
    return refuseToken(reply);
  request.apiClient = { clientId: claims.client_id, teamId: claims.team_id };
};

/**
 * A team directory's token (SCIM, RFC 7644 §2): a bearer token of its own kind, looked up by its
 * SHA-256 — never an access token, and a directory token is no access token anywhere else. Refusals
 * are SCIM error bodies: 401 for no such token (revoked, replaced), 403 while the team is disabled.
 */
const requireDirectory: preHandlerAsyncHookHandler = async (request, reply) => {
  const [scheme, token] = (request.headers.authorization ?? '').trim().split(/\s+/);
  const { repos, clock } = request.server.services;
  const directory =
    scheme?.toLowerCase() === 'bearer' && token?.startsWith(DIRECTORY_TOKEN_PREFIX)
      ? await repos.directories.byTokenHash(sha256(token))
      : undefined;
  if (!directory)
    return reply
      .code(401)
      .header('WWW-Authenticate', 'Bearer error="invalid_token"')
      .send(scimError(401, 'a valid directory token is required'));
  if (directory.team_disabled) return reply.code(403).send(scimError(403, 'the team is disabled'));
  await repos.directories.touch(directory.id, clock.now());
  request.directoryCaller = directory;
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

const HOOKS = {
  bearer: requireBearer,
  session: requireSession,
  client: requireClient,
  directory: requireDirectory,
} as const;

/**
 * The one place a route's caller is checked: each route declares `config.auth` (and, for admin routes,
 * `config.role`), and this adds the matching checks as the route's last preHandlers — after the body
 * type and anti-forgery rules (preValidation), the schema and the route's own preHandlers (an unknown
 * provider is 404 before the caller is asked who they are) — so handlers only read `callerOf` /
 * `signedInSession` / `adminOf` / `clientOf` / `directoryOf`. Public routes get no hook at all. A route that declares
 * nothing (or a role without `bearer`) makes the server refuse to start: checked once all routes are in
 * (`onReady`), since a plugin's own onRoute hook may declare its routes after this one has seen them
 * (plugins/pages.ts marks @fastify/static's file routes public that way).
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('bearerCaller', null);
  app.decorateRequest('signedIn', null);
  app.decorateRequest('teamAdmin', null);
  app.decorateRequest('teamActor', null);
  app.decorateRequest('apiClient', null);
  app.decorateRequest('directoryCaller', null);
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
    const auth = route.config?.auth;
    if (auth !== 'bearer' && auth !== 'session' && auth !== 'client' && auth !== 'directory') return;
    const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
    if (auth === 'bearer' && route.config?.role && route.config.setup) {
      route.preHandler = [...own, requireAdminOrSetup];
      return;
    }
    const role = auth === 'bearer' && route.config?.role ? [requireRole] : [];
    route.preHandler = [...own, HOOKS[auth], ...role];
  });
  app.addHook('onReady', async () => {
    const undeclared = routes.filter((route) => route.config?.auth === undefined);
    if (undeclared.length) {
      const names = undeclared.map((route) => `${[route.method].flat().join(',')} ${route.url}`);
      throw new Error(
        `routes without config.auth (declare 'bearer', 'session', 'client', 'directory' or 'none'): ${names.join('; ')}`,
      );
    }
    const misplaced = routes.filter((route) => route.config?.role && route.config.auth !== 'bearer');
    if (misplaced.length) {
      const names = misplaced.map((route) => `${[route.method].flat().join(',')} ${route.url}`);
      throw new Error(`config.role needs auth 'bearer': ${names.join('; ')}`);
    }
    const loose = routes.filter((route) => route.config?.setup && !route.config.role);
    if (loose.length) {
      const names = loose.map((route) => `${[route.method].flat().join(',')} ${route.url}`);
      throw new Error(`config.setup needs auth 'bearer' and a role: ${names.join('; ')}`);
    }
  });
}
