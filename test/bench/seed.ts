import { createHash, randomBytes, randomUUID } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { memberTerms, sortKey } from '../../demo/server/db/member-terms';

export interface GrowthSeed {
  /** Users in the database after seeding (the demo's own included). */
  users: number;
  /** Live sessions inserted (spread over all users). */
  sessions: number;
  /** Wall time of the bulk insert. */
  ms: number;
}

const token = () => randomBytes(32).toString('base64url');

/**
 * Grow a migrated and seeded database file (a copy of the test template) to `users` users and add
 * `sessions` live sessions, before the server process opens it. One transaction and prepared statements:
 * 100,000 users take about a second. Every added user gets the demo users' password hash (computed once
 * with the real scrypt parameters), so a bulk insert does not cost 100,000 key derivations and any of
 * them could sign in.
 */
export function growDatabase(file: string, users: number, sessions: number): GrowthSeed {
  const started = Date.now();
  const db = new SqliteDatabase(file);
  try {
    db.pragma('journal_mode = WAL');
    const now = Date.now();
    const team = db.prepare<[], { id: string }>("select id from teams where name = 'acme'").get();
    const hash = db
      .prepare<[], { password_hash: string }>("select password_hash from users where email = 'ada@acme.test'")
      .get();
    if (!team || !hash) throw new Error('the database is not the seeded demo template');
    const existing = db.prepare<[], { n: number }>('select count(*) as n from users').get()?.n ?? 0;
    const insertUser = db.prepare(
      `insert into users (id, team_id, email, name, name_key, password_hash, password_changed_at, locked, language, created_at)
       values (?, ?, ?, ?, ?, ?, ?, 0, null, ?)`,
    );
    const insertPermission = db.prepare('insert into user_permissions (user_id, permission) values (?, ?)');
    const insertSession = db.prepare(
      `insert into sessions (id_hash, public_id, user_id, created_at, last_seen_at, expires_at, revoked_at)
       values (?, ?, ?, ?, ?, ?, null)`,
    );
    db.transaction(() => {
      for (let n = existing; n < users; n++) {
        const id = randomUUID();
        // Spread over the alphabet, so the added rows sort before and after the demo users.
        const name = `Bench User ${n}`;
        insertUser.run(id, team.id, `user${n}@acme.test`, name, sortKey(name), hash.password_hash, now, now);
        insertPermission.run(id, 'SPOKE');
      }
      const ids = db.prepare<[], { id: string }>('select id from users').all();
      for (let n = 0; n < sessions; n++) {
        const user = ids[n % ids.length]!;
        insertSession.run(
          createHash('sha256').update(token()).digest('base64url'),
          randomBytes(24).toString('base64url'),
          user.id,
          now,
          now,
          now + 7 * 24 * 3600_000,
        );
      }
    })();
    // No `analyze`/`pragma optimize`: the server never runs them, so the plans measured are its plans.
    const total = db.prepare<[], { n: number }>('select count(*) as n from users').get()?.n ?? 0;
    return { users: total, sessions, ms: Date.now() - started };
  } finally {
    db.close();
  }
}

export interface TeamSeed {
  /** Members of the grown team (the demo's own included). */
  members: number;
  /** Search terms written for them. */
  terms: number;
  ms: number;
}

const FIRST = [
  'Maria',
  'Mark',
  'Marta',
  'Ada',
  'Ben',
  'Chloe',
  'David',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
];
const LAST = [
  'Martin',
  'Marsh',
  'Lovelace',
  'Okafor',
  'Tanaka',
  'Silva',
  'Müller',
  'Jensen',
  'Dubois',
  'Rossi',
];

/**
 * Grow acme to `members` members with names from a small pool (so a name prefix matches thousands) and
 * addresses `user<n>@acme.test`, each with its search terms and a permission, in one transaction — as
 * the server would have written them (db/member-terms.ts), the member count kept by its triggers.
 */
export function growTeam(file: string, members: number): TeamSeed {
  const started = Date.now();
  const db = new SqliteDatabase(file);
  try {
    db.pragma('journal_mode = WAL');
    const now = Date.now();
    const team = db.prepare<[], { id: string }>("select id from teams where name = 'acme'").get();
    if (!team) throw new Error('the database is not the seeded demo template');
    const existing =
      db.prepare<[string], { n: number }>('select count(*) as n from users where team_id = ?').get(team.id)
        ?.n ?? 0;
    const insertUser = db.prepare(
      `insert into users (id, team_id, email, name, name_key, password_hash, password_changed_at, locked, language, created_at)
       values (?, ?, ?, ?, ?, null, null, 0, null, ?)`,
    );
    const insertTerm = db.prepare(
      'insert into member_terms (team_id, term, user_id, shadow) values (?, ?, ?, ?)',
    );
    const insertPermission = db.prepare('insert into user_permissions (user_id, permission) values (?, ?)');
    let terms = 0;
    db.transaction(() => {
      for (let n = existing; n < members; n++) {
        const id = randomUUID();
        const name = `${FIRST[n % FIRST.length]} ${LAST[Math.floor(n / FIRST.length) % LAST.length]} ${n}`;
        const email = `user${n}@acme.test`;
        insertUser.run(id, team.id, email, name, sortKey(name), now);
        for (const { term, shadow } of memberTerms(name, email)) {
          insertTerm.run(team.id, term, id, shadow);
          terms++;
        }
        insertPermission.run(id, 'SPOKE');
      }
    })();
    // The seats must allow them (the bench reads, but the team screen would show it).
    db.prepare('update teams set seat_limit = ? where id = ?').run(members + 100, team.id);
    const total =
      db.prepare<[string], { n: number }>('select member_count as n from teams where id = ?').get(team.id)
        ?.n ?? 0;
    return { members: total, terms, ms: Date.now() - started };
  } finally {
    db.close();
  }
}

/**
 * Give the (grown) acme a directory whose token is `token`, and a SCIM external id (`ext-<n>`) to every
 * member, as a directory that had provisioned them all would have left them (db/scim.ts).
 */
export function growDirectory(file: string, token: string): void {
  const db = new SqliteDatabase(file);
  try {
    const now = Date.now();
    const team = db.prepare<[], { id: string }>("select id from teams where name = 'acme'").get();
    if (!team) throw new Error('the database is not the seeded demo template');
    db.prepare(
      `insert into directories (id, team_id, name, token_hash, sign_in, created_by_name, created_by_email, created_at)
       values (?, ?, 'Bench directory', ?, 'invitation', 'Bench', 'bench@acme.test', ?)`,
    ).run(randomUUID(), team.id, createHash('sha256').update(token).digest('base64url'), now);
    const members = db
      .prepare<[string], { id: string; email: string }>('select id, email from users where team_id = ?')
      .all(team.id);
    const insert = db.prepare(
      'insert into scim_users (user_id, team_id, external_id, given_name, family_name, updated_at) values (?, ?, ?, null, null, ?)',
    );
    db.transaction(() => {
      for (const member of members) insert.run(member.id, team.id, `ext-${member.email}`, now);
    })();
  } finally {
    db.close();
  }
}
