import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp, REDACT } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Db } from './db/connect';
import { migrate } from './db/migrations';
import { seedDemo } from './db/seed';
import { systemClock, type Clock } from './lib/clock';
import { openKeyRing } from './lib/keys';
import { buildPartnerApp } from './partner';
import type { ProviderKind } from './db/schema';
import { startStandIns, type StandIn } from './standin/providers';
import type { SamlStandIn } from './standin/saml';
import { startPwnedStandIn, type PwnedStandIn } from './standin/pwned-passwords';

export interface RunningServer {
  app: FastifyInstance;
  standIns: Map<ProviderKind, StandIn>;
  /** Demo mode: the stand-in SAML provider initrode's connection signs in through. */
  samlStandIn: SamlStandIn | null;
  /** Demo mode without PWNED_PASSWORDS_URL: the stand-in range API new passwords are checked against. */
  pwnedStandIn: PwnedStandIn | null;
  partner: FastifyInstance | null;
  db: Db;
  url: string;
  partnerUrl: string | null;
  close(): Promise<void>;
}

/**
 * The stand-in SAML provider, loaded in demo mode only: it needs samlify, a development dependency
 * that a deployment (`npm ci --omit=dev`) does not install.
 */
async function startSamlStandIn(publicUrl: string, port: number): Promise<SamlStandIn> {
  const { startSamlStandIn: start } = await import('./standin/saml');
  return start(publicUrl, port);
}

export interface StartOptions {
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
}

/**
 * Start the identity server: open and migrate the database, load or create the keys, seed the demo
 * data (demo mode), listen, and start the demo's partner origin.
 */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  const db = await openDatabase(config.databaseUrl);
  try {
    // Nodes starting together take turns: the first migrates, seeds and makes the first key; the
    // others wait, then find it all done (docs/decisions/migration-lock.md).
    const { app, standIns, samlStandIn, pwnedStandIn } = await db.exclusive(async () => {
      await migrate(db.kysely);
      const keys = await openKeyRing(db, config, clock);
      // Demo mode: the stand-in Google, Microsoft, Auth0, Apple and SAML providers (never outside it).
      const standIns = config.demo
        ? await startStandIns(config.publicUrl, config.standinPorts)
        : new Map<ProviderKind, StandIn>();
      const samlStandIn = config.demo
        ? await startSamlStandIn(config.publicUrl, config.standinPorts[4] ?? 0)
        : null;
      const pwnedStandIn = config.demo && !config.pwnedPasswordsUrl ? await startPwnedStandIn() : null;
      const app = await buildApp({
        config,
        db,
        keys,
        clock,
        logger: options.logger,
        standIns,
        pwnedStandInUrl: pwnedStandIn?.url,
      });
      if (config.demo) {
        // The seed points initrode's connection at the stand-in as it runs now (a new certificate).
        const added = await seedDemo(db.kysely, app.services.hasher, clock, samlStandIn);
        if (added) app.log.info({ rows: added }, 'demo data seeded');
      }
      return { app, standIns, samlStandIn, pwnedStandIn };
    });
    let partner: FastifyInstance | null = null;
    try {
      await app.listen({ port: config.port, host: config.host });
      if (config.demo && config.partnerPort) {
        partner = await buildPartnerApp(config);
        await partner.listen({ port: config.partnerPort, host: config.host });
      }
    } catch (error) {
      // A port already taken: nothing of this start may stay listening.
      await partner?.close();
      await app.close();
      for (const standIn of standIns.values()) await standIn.close();
      await samlStandIn?.close();
      await pwnedStandIn?.close();
      throw error;
    }
    const partnerUrl = partner ? `http://localhost:${config.partnerPort}` : null;
    return {
      app,
      standIns,
      samlStandIn,
      pwnedStandIn,
      partner,
      db,
      url: config.publicUrl,
      partnerUrl,
      async close() {
        await partner?.close();
        await app.close();
        for (const standIn of standIns.values()) await standIn.close();
        await samlStandIn?.close();
        await pwnedStandIn?.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const server = await startServer(config, { logger: { level: config.logLevel, redact: REDACT } });
  server.app.log.info(`portal: ${server.url}/  (brand ${config.brand})`);
  for (const standIn of server.standIns.values()) {
    server.app.log.info(`stand-in ${standIn.kind} provider (demo): ${standIn.issuer}`);
  }
  if (server.samlStandIn)
    server.app.log.info(`stand-in SAML provider (demo, initrode's): ${server.samlStandIn.entityId}`);
  if (server.pwnedStandIn)
    server.app.log.info(`stand-in Pwned Passwords range API (demo): ${server.pwnedStandIn.url}`);
  if (server.partnerUrl) {
    server.app.log.info(`partner page (another origin): ${server.partnerUrl}/partner.html`);
    server.app.log.info(`suite app page (another origin): ${server.partnerUrl}/suite-app.html`);
  }

  // Graceful shutdown: stop accepting, let in-flight requests finish, close the database; give up
  // after 15 s.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => {
      server.app.log.error('shutdown took longer than 15 s; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
