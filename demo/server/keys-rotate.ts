/**
 * `npm run keys:rotate [-- --now]`: adds a new token signing key to the database of DATABASE_URL
 * (docs/decisions/keys-in-database.md). It is published at once and signs from PUBLISH_AHEAD_MS on (so
 * relying parties that cache the JWKS learn it first), or at once with `--now` (every node hears of it
 * within a notification's delay on PostgreSQL; relying parties may then refetch the JWKS for an unknown
 * kid). Tokens signed with the previous key stay valid until they expire.
 */
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/connect';
import { migrate } from './db/migrations';
import { systemClock } from './lib/clock';
import { openKeyRing, PUBLISH_AHEAD_MS } from './lib/keys';

async function main(): Promise<void> {
  const now = process.argv.includes('--now');
  const config = loadConfig();
  const db = await openDatabase(config.databaseUrl);
  try {
    const keys = await db.exclusive(async () => {
      await migrate(db.kysely);
      return openKeyRing(db, config, systemClock);
    });
    const notBefore = systemClock.now() + (now ? 0 : PUBLISH_AHEAD_MS);
    const kid = await keys.rotate(notBefore);
    console.log(`new signing key ${kid}: published now, signs from ${new Date(notBefore).toISOString()}`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
