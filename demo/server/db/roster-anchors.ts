import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';

/** Every how many members, in address order, one address is kept. */
export const ANCHOR_STRIDE = 1000;
/** Teams kept at most (the oldest kept goes first); each keeps one address per stride. */
const TEAMS_KEPT = 1000;

interface Kept {
  /** The roster version last seen for the team, whether or not anchors were read at it. */
  seen: number;
  /** The addresses at positions STRIDE, 2·STRIDE, … at `version`. */
  anchors?: { version: number; emails: string[] };
}

/**
 * Where a page far into a team's member list (by address) starts, without stepping over every member
 * before it: an offset of 50,000 walks 50,000 index entries on each call, a few milliseconds of the
 * event loop on SQLite. The address at every thousandth position is kept per team while the team's
 * `roster_version` stands still (triggers move it on every insert, delete and change of address, on
 * any node); a page then starts at the kept address before it and skips fewer than a thousand.
 *
 * The addresses are read only once the version has been seen unchanged twice in a row: while a
 * directory is creating members between its reads, reading them all after each write would cost
 * more than the offsets it saves, so those reads page by plain offset.
 */
export function rosterAnchors(db: Kysely<Database>) {
  const kept = new Map<string, Kept>();

  async function readAnchors(teamId: string): Promise<string[]> {
    const { rows } = await sql<{ email: string }>`
      select email from (
        select email, row_number() over (order by email) as position
        from users where team_id = ${teamId}
      ) ranked
      where position > 1 and (position - 1) % ${ANCHOR_STRIDE} = 0
      order by position`.execute(db);
    return rows.map((row) => row.email);
  }

  return {
    /**
     * The address from which the page at `offset` is `skip` members on, or undefined when the page
     * is to be found by offset alone; `{ empty: true }` when the offset is past the last member.
     */
    async startOf(
      teamId: string,
      version: number,
      offset: number,
    ): Promise<{ from: string; skip: number } | { empty: true } | undefined> {
      if (offset < ANCHOR_STRIDE) return undefined;
      let entry = kept.get(teamId);
      if (entry?.anchors?.version !== version) {
        const stable = entry?.seen === version;
        if (!entry) {
          if (kept.size >= TEAMS_KEPT) kept.delete(kept.keys().next().value!);
          entry = { seen: version };
          kept.set(teamId, entry);
        }
        entry.seen = version;
        if (!stable) return undefined;
        entry.anchors = { version, emails: await readAnchors(teamId) };
      }
      const index = Math.floor(offset / ANCHOR_STRIDE);
      const from = entry.anchors.emails[index - 1];
      if (from === undefined) return { empty: true };
      return { from, skip: offset - index * ANCHOR_STRIDE };
    },
  };
}
