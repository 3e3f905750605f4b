import { randomUUID } from 'node:crypto';
import { addUser } from './team-admin';
import type { TestApp } from './test-server';

/**
 * A team of its own that offers sign-in with an e-mail code (beside passwords), so the tests and the
 * screen sweeps that use it change nothing the seeded teams' screens show; its owner has no password.
 */
export const CODE_TEAM = 'hooli';
export const CODE_MEMBER = 'gavin@hooli.test';

/** Make the team and its owner, once per database. */
export async function codeTeam(t: Pick<TestApp, 'db' | 'clock'>): Promise<void> {
  const db = t.db.kysely;
  const made = await db
    .insertInto('teams')
    .values({
      id: randomUUID(),
      name: CODE_TEAM,
      display_name: 'Hooli',
      disabled: 0,
      local_enabled: 1,
      google_enabled: 0,
      azure_enabled: 0,
      auth0_enabled: 0,
      auth0_display_name: null,
      brand: null,
      created_at: t.clock.now(),
      email_code_enabled: 1,
    })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  if (Number(made.numInsertedOrUpdatedRows ?? 0n) === 0) return;
  await addUser(t, { email: CODE_MEMBER, name: 'Gavin Belson', permissions: ['OWNER'], team: CODE_TEAM });
}
