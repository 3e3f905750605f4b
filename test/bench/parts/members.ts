/**
 * The `members` part: the admin member list and search with 100,000 members in one team (design §5:
 * admin lists p99 ≤ 50 ms), under load — by name prefix, by e-mail prefix, the first page and a later
 * one — each a median round of autocannon against a server process on a grown copy of the database.
 */
import { startServerProcess } from '../harness';
import { loadLists, reportLists } from '../list-bench';
import { growTeam, type TeamSeed } from '../seed';
import type { Target } from '../server-load';
import { signIn } from '../session';
import { MEMBERS } from '../settings';

/** A cursor as the server makes them (db/members.ts): where a later page starts. */
const cursor = (by: 'name' | 'term', key: string) =>
  Buffer.from(JSON.stringify([by, key, ''])).toString('base64url');

function targets(accessToken: string): Target[] {
  const headers = { authorization: `Bearer ${accessToken}` };
  const list = (name: string, query: string): Target => ({
    name,
    path: `/api/team/members?${query}`,
    headers,
  });
  return [
    list('list by name, first page', 'limit=25'),
    list('list by name, a later page', `limit=25&cursor=${cursor('name', 'mar')}`),
    list('search by name prefix "mar", first page', 'q=mar&limit=25'),
    list('search by name prefix "mar", a later page', `q=mar&limit=25&cursor=${cursor('term', 'martin')}`),
    list('search by e-mail prefix "user5", first page', 'q=user5&limit=25'),
    list(
      'search by e-mail prefix "user5", a later page',
      `q=user5&limit=25&cursor=${cursor('term', 'user5500')}`,
    ),
  ];
}

export async function members() {
  let seed: TeamSeed | undefined;
  const server = await startServerProcess({ LOGIN_ADDRESS_LIMIT: '1000000' }, (file) => {
    seed = growTeam(file, MEMBERS);
  });
  let measured: Awaited<ReturnType<typeof loadLists>>;
  try {
    const session = await signIn(server.url);
    const all = targets(session.accessToken);
    // Every target answers a full page before anything is timed.
    for (const target of all) {
      const response = await fetch(`${server.url}${target.path}`, { headers: target.headers });
      const body = (await response.json()) as { members?: unknown[] };
      if (!response.ok || !body.members?.length)
        throw new Error(`${target.name}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    measured = await loadLists(server.url, all);
  } finally {
    await server.stop();
  }
  reportLists(
    `Member list and search at ${seed!.members.toLocaleString('en')} members`,
    `One team grown to ${seed!.members.toLocaleString('en')} members in ${seed!.ms} ms (${seed!.terms.toLocaleString('en')} search terms), signed in as its owner.\n`,
    measured,
  );
  return { seed: seed!, ...measured };
}
