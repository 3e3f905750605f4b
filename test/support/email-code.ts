import { addTeam, addUser } from './team-admin';
import type { TestApp } from './test-server';

/**
 * A team of its own that offers sign-in with an e-mail code (beside passwords), so the tests and the
 * screen sweeps that use it change nothing the seeded teams' screens show; its owner has no password.
 */
export const CODE_TEAM = 'hooli';
export const CODE_MEMBER = 'gavin@hooli.test';

/** Make the team and its owner, once per database. */
export async function codeTeam(t: Pick<TestApp, 'db' | 'clock'>): Promise<void> {
  if (!(await addTeam(t, { name: CODE_TEAM, displayName: 'Hooli', emailCode: true }))) return;
  await addUser(t, { email: CODE_MEMBER, name: 'Gavin Belson', permissions: ['OWNER'], team: CODE_TEAM });
}
