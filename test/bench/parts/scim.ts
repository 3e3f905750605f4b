/**
 * The `scim` part: a directory's list and filter calls (SCIM 2.0, as Okta and Entra ID make them) with
 * 100,000 members in one team (design §5: admin lists p99 ≤ 50 ms), each a median round of autocannon
 * against a server process on a grown copy of the database.
 */
import { startServerProcess } from '../harness';
import { loadLists, reportLists } from '../list-bench';
import { growDirectory, growTeam, type TeamSeed } from '../seed';
import type { Target } from '../server-load';
import { MEMBERS } from '../settings';

const TOKEN = 'acct_scim_bench-directory-token-0123456789abcdefghijklmnop';

function targets(members: number): Target[] {
  const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/scim+json' };
  const call = (name: string, query: string): Target => ({ name, path: `/scim/v2/${query}`, headers });
  const filter = (expression: string) => encodeURIComponent(expression);
  const someone = `user${Math.floor(members / 2)}@acme.test`;
  return [
    call('Users, first page of 100', 'Users?count=100'),
    call('Users, a page in the middle', `Users?startIndex=${Math.floor(members / 2)}&count=100`),
    call('Users, filter userName eq', `Users?filter=${filter(`userName eq "${someone}"`)}`),
    call('Users, filter externalId eq', `Users?filter=${filter(`externalId eq "ext-${someone}"`)}`),
    call(
      'Users, filter work e-mail eq',
      `Users?filter=${filter(`emails[type eq "work"].value eq "${someone}"`)}`,
    ),
    call(
      'Users, filter userName eq and externalId eq',
      `Users?filter=${filter(`userName eq "${someone}" and externalId eq "ext-${someone}"`)}`,
    ),
    call('Groups, without members', 'Groups?excludedAttributes=members'),
  ];
}

export async function scim() {
  let seed: TeamSeed | undefined;
  const server = await startServerProcess({}, (file) => {
    seed = growTeam(file, MEMBERS);
    growDirectory(file, TOKEN);
  });
  let measured: Awaited<ReturnType<typeof loadLists>>;
  const all = targets(MEMBERS);
  try {
    // Every call answers what it should before anything is timed.
    for (const target of all) {
      const response = await fetch(`${server.url}${target.path}`, { headers: target.headers });
      const body = (await response.json()) as { totalResults?: number; Resources?: unknown[] };
      const found = target.name.startsWith('Groups')
        ? body.totalResults !== undefined
        : body.Resources?.length;
      if (!response.ok || !found)
        throw new Error(`${target.name}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    measured = await loadLists(server.url, all);
  } finally {
    await server.stop();
  }
  reportLists(
    `SCIM list and filter at ${seed!.members.toLocaleString('en')} members`,
    `One team grown to ${seed!.members.toLocaleString('en')} members, each with a SCIM external id, read with a directory's token.`,
    measured,
  );
  return { seed: seed!, ...measured };
}
