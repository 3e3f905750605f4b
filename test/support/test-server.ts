import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { buildApp } from '../../demo/server/app';
import { loadConfig, type Config } from '../../demo/server/config';
import { openDatabase, type Db } from '../../demo/server/db/connect';
import { migrate } from '../../demo/server/db/migrations';
import { seedDemo } from '../../demo/server/db/seed';
import { OffsetClock } from '../../demo/server/lib/clock';
import { openKeyRing } from '../../demo/server/lib/keys';
import { PasswordHasher, SCRYPT_PARAMS, scryptParams } from '../../demo/server/lib/password';
import { startServer, type RunningServer } from '../../demo/server/main';
import type { ProviderKind } from '../../demo/server/db/schema';
import { startStandIns, type StandIn } from '../../demo/server/standin/providers';
import { startPwnedStandIn, type PwnedStandIn } from '../../demo/server/standin/pwned-passwords';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** A free loopback port (the OS picks it; the tiny race with other processes is acceptable in tests). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * The scrypt cost (HASH_COST) of test servers and their seeded users: N=2^10 instead of 2^17, or the
 * suites would spend most of their time hashing. The tests of hashing itself, the stress suite (its
 * load and races depend on sign-ins being slow) and the bench pass {@link PRODUCTION_HASH_COST}.
 */
export const TEST_HASH_COST = '10';
/** Seals the keys in the PostgreSQL test databases (a fixed test value: the databases are thrown away). */
export const TEST_KEY_ENCRYPTION_KEY = Buffer.alloc(32, 'test-kek').toString('base64');

/** The server's default cost (N=2^17). */
export const PRODUCTION_HASH_COST = String(SCRYPT_PARAMS.ln);

/** The demo users' password hashes are made at this cost: the seed hashes with the server's hasher. */
const seedHasher = (cost: string) => new PasswordHasher(4, 100, scryptParams(Number(cost)));

const templateVersion = () =>
  createHash('sha256')
    .update(readFileSync(join(ROOT, 'demo/server/db/migrations.ts')))
    .update(readFileSync(join(ROOT, 'demo/server/db/seed.ts')))
    .digest('hex')
    .slice(0, 16);

/**
 * A migrated and seeded SQLite file, made once per schema/seed version and hash cost and copied for every
 * test server (at the production cost, seeding takes seconds).
 */
function seededTemplate(cost: string): Promise<string> {
  return once(`sqlite-${cost}`, async () => {
    const version = templateVersion();
    const template = join(tmpdir(), `acct-elements-template-${version}-ln${cost}.db`);
    if (existsSync(template)) return template;
    const building = `${template}.${process.pid}.tmp`;
    const db = await openDatabase(building);
    await migrate(db.kysely);
    await seedDemo(db.kysely, seedHasher(cost), new OffsetClock());
    await db.close(); // closing checkpoints the WAL into the main file
    renameSync(building, template);
    return template;
  });
}

/**
 * Each template is built once per process: the server files may share one (scripts/node-tests.mjs), and
 * their `before` hooks then start side by side, which would build it twice under one name.
 */
const templates = new Map<string, Promise<string>>();
function once(key: string, build: () => Promise<string>): Promise<string> {
  let pending = templates.get(key);
  if (!pending) {
    pending = build();
    templates.set(key, pending);
    pending.catch(() => templates.delete(key));
  }
  return pending;
}

/**
 * TEST_POSTGRES=1 (scripts/postgres.mjs sets it with DATABASE_URL): every test server gets a fresh
 * PostgreSQL database, a copy of a seeded template database made once per schema/seed version.
 */
async function postgresDatabase(cost: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const at = (name: string) =>
    Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).href;
  const admin = new pg.Client({ connectionString: at('postgres') });
  await admin.connect();
  try {
    const template = await once(`postgres-${cost}`, async () => {
      const template = `acct_template_${templateVersion()}_ln${cost}`;
      const exists = await admin.query('select 1 from pg_database where datname = $1', [template]);
      if (exists.rowCount) return template;
      const building = `acct_building_${process.pid}`;
      await admin.query(`drop database if exists ${building}`);
      await admin.query(`create database ${building}`);
      const db = await openDatabase(at(building));
      await migrate(db.kysely);
      await seedDemo(db.kysely, seedHasher(cost), new OffsetClock());
      await db.close();
      try {
        await admin.query(`alter database ${building} rename to ${template}`);
      } catch (error) {
        // Another test process, running at the same time, made it first: use that one.
        if ((error as { code?: string }).code !== '42P04') throw error;
        await admin.query(`drop database ${building}`);
      }
      return template;
    });
    const name = `test_${randomBytes(8).toString('hex')}`;
    await admin.query(`create database ${name} template ${template}`);
    return {
      url: at(name),
      async drop() {
        const client = new pg.Client({ connectionString: at('postgres') });
        await client.connect();
        try {
          // The server's pool has ended, but its connections may still be closing: ending them by force
          // would reach this process as an uncaught "terminating connection" error. Wait for them
          // (55006: the database is in use); force only what is still open after 5 s.
          for (let tries = 0; ; tries++) {
            try {
              await client.query(`drop database if exists ${name}`);
              break;
            } catch (error) {
              if ((error as { code?: string }).code !== '55006') throw error;
              if (tries === 100) {
                await client.query(`drop database if exists ${name} with (force)`);
                break;
              }
              await new Promise((r) => setTimeout(r, 50));
            }
          }
        } finally {
          await client.end();
        }
      },
    };
  } finally {
    await admin.end();
  }
}

export interface TestEnvironment {
  dir: string;
  config: Config;
  clock: OffsetClock;
  /** Removes the data directory (and the PostgreSQL database, if any). */
  cleanUp(): Promise<void>;
}

/**
 * A fresh data directory with a copy of the seeded database, and a config pointing at it. Passwords are
 * hashed at {@link TEST_HASH_COST} unless `env` sets HASH_COST (the seeded users' hashes then match it).
 */
export async function testEnvironment(env: Record<string, string> = {}): Promise<TestEnvironment> {
  const hashCost = env.HASH_COST ?? TEST_HASH_COST;
  const dir = mkdtempSync(join(tmpdir(), 'acct-test-'));
  copyFileSync(await seededTemplate(hashCost), join(dir, 'portal.db'));
  const postgres = process.env.TEST_POSTGRES === '1' ? await postgresDatabase(hashCost) : null;
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    STANDIN_PORTS: '0,0,0,0',
    HASH_COST: hashCost,
    // The tests' identity providers serve their metadata on this machine.
    OUTBOUND_PRIVATE_ADDRESSES: 'allow',
    ...(postgres ? { DATABASE_URL: postgres.url, KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY } : {}),
    ...env,
  });
  const cleanUp = async () => {
    // A mail sent after its answer (a reset link's) may still be landing in the outbox while the
    // folder goes: a file made during the removal fails it with ENOTEMPTY, and it is tried again.
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    await postgres?.drop();
  };
  return { dir, config, clock: new OffsetClock(), cleanUp };
}

/**
 * The database behind each test app, for the helpers that set up state directly ({@link sessionFor}):
 * the app itself reaches its data only through its repositories.
 */
const databases = new WeakMap<FastifyInstance, Db>();

export interface TestApp extends TestEnvironment {
  app: FastifyInstance;
  db: Db;
  standIns: Map<ProviderKind, StandIn>;
  /**
   * The stand-in range API new passwords are checked against, unless PWNED_PASSWORDS_URL is given (a
   * server started outside demo mode has none).
   */
  pwnedStandIn: PwnedStandIn | null;
  close(): Promise<void>;
}

/**
 * Watches every answer of the app's routes: one given with a status its route's response schema does
 * not list is written down, and `close()` fails the test file with the list. So the whole server suite
 * checks that the schemas name every status the routes really answer (the not-found answer belongs to
 * no route and is left out).
 */
function answersWatch(onRoute?: (route: RouteOptions) => void) {
  const undeclared = new Set<string>();
  const watch = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.is404) return;
    const status = reply.statusCode;
    const response = (request.routeOptions.schema?.response ?? {}) as Record<string, unknown>;
    if (!(status in response || `${String(status)[0]}xx` in response || 'default' in response))
      undeclared.add(`${request.method} ${request.routeOptions.url} answered ${status}`);
  };
  return {
    onRoute(route: RouteOptions) {
      onRoute?.(route);
      route.onResponse = [...(route.onResponse === undefined ? [] : [route.onResponse].flat()), watch];
    },
    check() {
      if (undeclared.size === 0) return;
      throw new Error(
        `answers with a status their route's response schema does not list:\n${[...undeclared].join('\n')}`,
      );
    },
  };
}

/**
 * The identity server built in-process for `app.inject` (not listening). `onRoute` is told of every
 * route as it is added (see {@link registeredRoutes}). Every answer's status must be one its route's
 * response schema lists: `close()` fails otherwise.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  onRoute?: (route: RouteOptions) => void,
): Promise<TestApp> {
  const base = await testEnvironment({
    PARTNER_PORT: '0',
    CORS_ORIGINS: 'https://suite.example.test',
    ...env,
  });
  const db = await openDatabase(base.config.databaseUrl);
  await migrate(db.kysely);
  const keys = await openKeyRing(db, base.config, base.clock);
  const standIns = await startStandIns(base.config.publicUrl, base.config.standinPorts);
  const pwnedStandIn = await startPwnedStandIn();
  const answers = answersWatch(onRoute);
  const app = await buildApp({
    config: base.config,
    db,
    keys,
    clock: base.clock,
    logger: false,
    standIns,
    pwnedStandInUrl: pwnedStandIn.url,
    onRoute: answers.onRoute,
  });
  await app.ready();
  databases.set(app, db);
  return {
    ...base,
    app,
    db,
    standIns,
    pwnedStandIn,
    async close() {
      await app.close();
      await db.close();
      for (const standIn of standIns.values()) await standIn.close();
      await pwnedStandIn.close();
      await base.cleanUp();
      answers.check();
    },
  };
}

/**
 * The options of every route the app registers, Fastify's HEAD twins of GET routes included: the objects
 * themselves, as every onRoute hook (a plugin's own too) has left them. The app is built with `env` (demo
 * mode by default, so the demo's routes are included).
 */
export async function registeredRouteOptions(env: Record<string, string> = {}): Promise<RouteOptions[]> {
  const routes: RouteOptions[] = [];
  const test = await createTestApp(env, (route) => void routes.push(route));
  await test.close();
  return routes;
}

/**
 * Every route the app registers, as `METHOD /url` (Fastify's own HEAD twins of GET routes left out),
 * sorted. The app is built with `env` (demo mode by default, so the demo's routes are included).
 */
export async function registeredRoutes(env: Record<string, string> = {}): Promise<string[]> {
  const routes = new Set<string>();
  for (const route of await registeredRouteOptions(env))
    for (const method of [route.method].flat()) routes.add(`${method} ${route.url}`);
  // Fastify adds a HEAD twin to every GET route (exposeHeadRoutes); it is not a route of ours.
  return [...routes]
    .filter((route) => !(route.startsWith('HEAD ') && routes.has(`GET ${route.slice(5)}`)))
    .sort();
}

export interface TestServer extends TestEnvironment {
  server: RunningServer;
  url: string;
  partnerUrl: string;
  close(): Promise<void>;
}

/** The identity server listening on free loopback ports, with the demo's partner origin. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startTestServerOnce(env);
    } catch (error) {
      // Two test processes can be handed the same free port before either listens on it: try new
      // ports rather than fail a whole file.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 3) throw error;
    }
  }
}

async function startTestServerOnce(env: Record<string, string>): Promise<TestServer> {
  const port = await freePort();
  let partnerPort = await freePort();
  // The port just probed is free again, so the second probe may hand it out once more.
  while (partnerPort === port) partnerPort = await freePort();
  const base = await testEnvironment({
    PORT: String(port),
    PARTNER_PORT: String(partnerPort),
    PUBLIC_URL: `http://localhost:${port}`,
    HOST: 'localhost',
    ...env,
  });
  let server: RunningServer;
  try {
    server = await startServer(base.config, { clock: base.clock, logger: false });
  } catch (error) {
    await base.cleanUp();
    throw error;
  }
  databases.set(server.app, server.db);
  return {
    ...base,
    server,
    url: server.url,
    partnerUrl: server.partnerUrl ?? '',
    async close() {
      await server.close();
      await base.cleanUp();
    },
  };
}

export interface DirectSession {
  /** The session cookie value. */
  token: string;
  /** The public session handle (what /account/check returns). */
  publicId: string;
  /** The anti-forgery token bound to this session. */
  xsrf: string;
  /** A ready `Cookie` header with both cookies. */
  cookie: string;
}

/** A signed-in session for a seeded user, made directly in the database (sign-in has its own tests). */
export async function sessionFor(app: FastifyInstance, email: string, team?: string): Promise<DirectSession> {
  const { sessions, xsrf } = app.services;
  const db = databases.get(app)?.kysely;
  if (!db) throw new Error('sessionFor: not the app of a test server (createTestApp, startTestServer)');
  let query = db
    .selectFrom('users')
    .innerJoin('teams', 'teams.id', 'users.team_id')
    .select('users.id')
    .where('users.email', '=', email);
  if (team) query = query.where('teams.name', '=', team);
  const user = await query.executeTakeFirstOrThrow();
  const { token, session } = await sessions.create(user.id);
  const xsrfToken = xsrf.forSession(session);
  return {
    token,
    publicId: session.public_id,
    xsrf: xsrfToken,
    cookie: `acct_session=${token}; XSRF-TOKEN=${xsrfToken}`,
  };
}

/** A session and the portal's access token for it, through the real session exchange. */
/**
 * The elements' session → token exchange (`POST /connect/token`, grant `device_code`, the portal's
 * client) with a browser's cookies and anti-forgery token, for the session named `sessionId`.
 */
export function exchangeSession(
  app: FastifyInstance,
  browser: { cookie: string; xsrf: string },
  sessionId: string,
  fields: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/connect/token',
    headers: {
      cookie: browser.cookie,
      'x-xsrf-token': browser.xsrf,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({
      grant_type: 'device_code',
      client_id: 'acct-portal',
      sessionId,
      ...fields,
    }).toString(),
  });
}

export async function tokenFor(
  app: FastifyInstance,
  email: string,
  team?: string,
): Promise<DirectSession & { accessToken: string }> {
  const session = await sessionFor(app, email, team);
  const response = await exchangeSession(app, session, session.publicId);
  if (response.statusCode !== 200) throw new Error(`token exchange failed: ${response.body}`);
  return { ...session, accessToken: response.json().access_token as string };
}
