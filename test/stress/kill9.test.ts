import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import { PasswordHasher } from '../../demo/server/lib/password';
import {
  dataDir,
  DEMO_PASSWORD,
  envNumber,
  freePort,
  signIn,
  sleep,
  startServer,
  type Client,
  type DataDir,
  type ServerProcess,
} from './support';

/**
 * Design §4: no acknowledged write is lost if the process is killed. Clients change their names and
 * passwords without pause while the server is SIGKILLed at random moments and restarted on the same
 * data; afterwards every user's stored name and password must be the last acknowledged one or one
 * attempted after it (a write cut off by the kill may or may not have landed), and the file must pass
 * `PRAGMA integrity_check`.
 */
const KILLS = envNumber('STRESS_KILLS', 6);
const CLIENTS = envNumber('STRESS_CLIENTS', 4);

interface UserState {
  email: string;
  client: Client;
  seq: number;
  /** Sequence number of the last name the server acknowledged (-1: none yet, the seeded name stands). */
  ackedName: number;
  attemptedName: number;
  /** The last acknowledged password first, then any attempted after it whose outcome is unknown. */
  passwords: string[];
  acks: { names: number; passwords: number };
  cutOff: number;
}

let data: DataDir;
let port: number;
let server: ServerProcess;

before(async () => {
  data = await dataDir(CLIENTS);
  port = await freePort();
});
after(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await data.cleanUp();
});

const nameOf = (index: number, seq: number) => `stress ${index} #${seq}`;

/**
 * Only a kill may cut a request off: one given up on while the server runs could still land after a
 * later change, and the stored password would be none the client knows of. On a busy machine a password
 * change queued behind others' hashing takes many seconds; the limit only keeps a hung server from
 * stalling the run.
 */
const REQUEST_LIMIT_MS = 120_000;

async function post(path: string, user: UserState, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.client.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
  });
}

async function changeName(user: UserState, index: number): Promise<void> {
  const seq = ++user.seq;
  user.attemptedName = seq;
  try {
    const response = await post('/api/user', user, { name: nameOf(index, seq) });
    if (response.status === 200) {
      user.ackedName = seq;
      user.acks.names++;
    } else assert.fail(`name change answered ${response.status}: ${await response.text()}`);
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    user.cutOff++;
  }
}

async function changePassword(user: UserState, index: number): Promise<void> {
  const next = `stress password ${index} #${++user.seq}`;
  // Newest candidate first: an attempt cut off by a kill has most likely landed.
  for (const old of [...user.passwords].reverse()) {
    let response: Response;
    try {
      response = await post('/api/user/password', user, {
        oldPassword: old,
        newPassword: next,
        confirmNewPassword: next,
      });
    } catch {
      user.cutOff++;
      user.passwords.push(next);
      return;
    }
    const text = await response.text();
    if (response.status === 200) {
      user.passwords = [next];
      user.acks.passwords++;
      return;
    }
    if (response.status !== 400 || !text.includes('InvalidPassword'))
      assert.fail(`password change answered ${response.status}: ${text}`);
  }
  assert.fail(`none of ${user.email}'s candidate passwords was accepted`);
}

it(`keeps every acknowledged write through ${KILLS} kill -9s`, { timeout: 600_000 }, async () => {
  server = await startServer(data.dir, port);
  const users: UserState[] = [];
  for (const email of data.users) {
    users.push({
      email,
      client: await signIn(server.url, email, DEMO_PASSWORD),
      seq: 0,
      ackedName: -1,
      attemptedName: -1,
      passwords: [DEMO_PASSWORD],
      acks: { names: 0, passwords: 0 },
      cutOff: 0,
    });
  }

  // While the server is down the clients wait for the restart, which opens this.
  let serverUp = Promise.resolve();
  let restarted = () => {};
  let lastServer = false;
  let stop = false;
  const loops = users.map(async (user, index) => {
    let atLast: UserState['acks'] | null = null;
    for (let op = 0; ; op++) {
      await serverUp;
      if (stop) return;
      // After the last restart, a client goes on until that server has acknowledged both kinds of
      // write of theirs (every earlier server is dead: only this one can acknowledge).
      if (lastServer) {
        atLast ??= { ...user.acks };
        if (user.acks.names > atLast.names && user.acks.passwords > atLast.passwords) return;
      }
      // Mostly names (cheap), every fourth a password change (two scrypt derivations).
      if (op % 4 === 3) await changePassword(user, index);
      else await changeName(user, index);
    }
  });

  const kills: number[] = [];
  try {
    for (let k = 0; k < KILLS; k++) {
      // Pacing, not waiting: the kill lands at a random moment of the clients' writes.
      const wait = 300 + Math.random() * 1500;
      await sleep(wait);
      server.child.kill('SIGKILL');
      serverUp = new Promise((resolve) => (restarted = resolve));
      const { signal } = await server.exited;
      assert.equal(signal, 'SIGKILL');
      kills.push(Math.round(wait));
      const restart = Date.now();
      server = await startServer(data.dir, port);
      console.log(`restart ${k}: ${Date.now() - restart} ms`);
      lastServer = k === KILLS - 1;
      restarted();
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(loops),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('the last server acknowledged no name or no password change of a client')),
          180_000,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  } finally {
    stop = true;
    restarted();
    await Promise.all(loops);
  }

  server.child.kill('SIGTERM');
  const termAt = Date.now();
  // Checked last, so that a slow shutdown does not hide what the data shows.
  const exit = await server.exited;
  console.log(`SIGTERM exit after ${Date.now() - termAt} ms: ${JSON.stringify(exit)}`);

  const db = new Database(data.dbFile, { readonly: true, fileMustExist: true });
  const integrity = db.pragma('integrity_check', { simple: true });
  const rows = db
    .prepare(`select email, name, password_hash from users where email like 'stress-%'`)
    .all() as Array<{ email: string; name: string; password_hash: string }>;
  db.close();
  assert.equal(integrity, 'ok');

  const hasher = new PasswordHasher(2, 100);
  let names = 0;
  let passwords = 0;
  let cutOff = 0;
  for (const [index, user] of users.entries()) {
    const row = rows.find((r) => r.email === user.email)!;
    const stored = /#(\d+)$/.exec(row.name);
    if (user.ackedName === -1) assert.ok(row.name === user.email || stored, row.name);
    else {
      assert.ok(stored, `${user.email}: ${row.name}`);
      const seq = Number(stored[1]);
      assert.equal(row.name, nameOf(index, seq));
      assert.ok(
        seq >= user.ackedName && seq <= user.attemptedName,
        `${user.email}: stored #${seq}, acknowledged #${user.ackedName}, attempted up to #${user.attemptedName}`,
      );
    }
    const matches = [];
    for (const candidate of user.passwords) {
      if (await hasher.verify(candidate, row.password_hash)) matches.push(candidate);
    }
    assert.equal(matches.length, 1, `${user.email}: stored password is none of ${user.passwords.join(', ')}`);
    names += user.acks.names;
    passwords += user.acks.passwords;
    cutOff += user.cutOff;
  }
  // The run must have exercised something: writes acknowledged between every pair of kills.
  assert.ok(names >= KILLS * 2, `only ${names} name changes acknowledged`);
  assert.ok(passwords >= 1, 'no password change acknowledged');
  console.log(
    `kill -9: ${kills.length} kills (after ${kills.join(', ')} ms), ${names} name and ${passwords} password ` +
      `changes acknowledged and found, ${cutOff} requests cut off by a kill; integrity_check: ${String(integrity)}`,
  );
  assert.deepEqual(exit, { code: 0, signal: null }, server.output().split('\n').slice(-15).join('\n'));
});
