import { addTeam, addUser } from './team-admin';
import type { TestApp } from './test-server';

/**
 * A team of its own with more members than a screen lists at once (the event log's member filter
 * lists 100), so the tests that need one change nothing the seeded teams' screens show. Its owner has
 * no password: tests sign in through the harness.
 */
export const BIG_TEAM = 'vandelay';
export const BIG_OWNER = 'art@vandelay.test';
export const BIG_MEMBERS = 120;

/** The n-th member (1-based) other than the owner; names sort in their order after the owner's. */
export function bigMember(n: number): { name: string; email: string } {
  const number = String(n).padStart(3, '0');
  return { name: `Member ${number}`, email: `member${number}@vandelay.test` };
}

/** Make the team, its owner and its members, once per database. */
export async function bigTeam(t: Pick<TestApp, 'db' | 'clock'>): Promise<void> {
  if (!(await addTeam(t, { name: BIG_TEAM, displayName: 'Vandelay Industries' }))) return;
  await addUser(t, { email: BIG_OWNER, name: 'Art Vandelay', permissions: ['OWNER'], team: BIG_TEAM });
  for (let n = 1; n <= BIG_MEMBERS; n++)
    await addUser(t, { ...bigMember(n), permissions: [], team: BIG_TEAM });
}
