/**
 * A team's event streaming (routes/event-streams.ts, lib/event-streams.ts): who may manage endpoints;
 * the events reaching a real HTTPS receiver on loopback that verifies each delivery with the
 * `standardwebhooks` library, fails the first ones, drops repeats by webhook-id and checks the order;
 * the backoff, the day of failures that disables an endpoint and mails the owners; and on PostgreSQL two
 * nodes delivering from one database, each event once.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { isPublicAddress } from '../../demo/server/lib/outbound';
import { backoffMs } from '../../demo/server/lib/event-streams';
import type {
  EventStream,
  EventStreamList,
  EventStreamWithSecret,
  StreamTestResult,
} from '../../src/contract/schemas/event-streams';
import { STREAM_DISABLE_AFTER_MS } from '../../src/contract/event-streams';
import { TestSmtp } from '../support/smtp';
import { Receiver } from '../support/webhook-receiver';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, tokenFor, type TestApp } from '../support/test-server';

let receiver: Receiver;
let t: TestApp;
let smtp: TestSmtp;
let who: Callers;
before(async () => {
  receiver = await Receiver.start();
  smtp = await TestSmtp.start();
  t = await createTestApp({ SMTP_URL: smtp.url });
  // The server trusts the receiver's certificate, and only it.
  t.app.services.streams.outbound = { ca: receiver.cert };
  // The tests run the rounds themselves.
  t.app.services.streams.stop();
  who = await callers(t);
});
after(async () => {
  await t?.close();
  await smtp?.close();
  await receiver?.close();
});
beforeEach(async () => {
  receiver.reset();
  // Each test starts without endpoints (and so without deliveries).
  await t.db.kysely.deleteFrom('stream_deliveries').execute();
  await t.db.kysely.deleteFrom('event_streams').execute();
  // A test that moved the clock leaves it moved back, with tokens of that time.
  if (t.clock.offset !== 0) {
    t.clock.offset = 0;
    who = await callers(t);
  }
});

async function addStream(url = receiver.url, token = who.owner): Promise<EventStreamWithSecret> {
  const response = await api(t, 'POST', '/api/team/streams', token, { url });
  assert.equal(response.statusCode, 201, response.body);
  const made = response.json() as EventStreamWithSecret;
  receiver.secrets = [made.secret];
  return made;
}

let groups = 0;
/** An event in acme's log: a group made by its owner. Its id. */
async function event(node: TestApp = t, token = who.owner): Promise<string> {
  const name = `Stream group ${++groups}`;
  const response = await api(node, 'POST', '/api/team/groups', token, { name });
  assert.equal(response.statusCode, 201, response.body);
  const row = await node.db.kysely
    .selectFrom('audit_events')
    .select('id')
    .where('action', '=', 'group.created')
    .where('target', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

const streamOf = async (id: string): Promise<EventStream> =>
  ((await api(t, 'GET', '/api/team/streams', who.owner)).json() as EventStreamList).streams.find(
    (s) => s.id === id,
  )!;

describe('who may manage event streams', () => {
  it('refuses no token (401) and a member (403 notAdmin) on every call', async () => {
    const { stream } = await addStream();
    for (const [method, url, body] of [
      ['GET', '/api/team/streams', undefined],
      ['POST', '/api/team/streams', { url: receiver.url }],
      ['POST', `/api/team/streams/${stream.id}/secret`, undefined],
      ['POST', `/api/team/streams/${stream.id}/pause`, undefined],
      ['POST', `/api/team/streams/${stream.id}/resume`, undefined],
      ['POST', `/api/team/streams/${stream.id}/test`, undefined],
      ['DELETE', `/api/team/streams/${stream.id}`, undefined],
    ] as const) {
      expectError(await api(t, method, url, undefined, body), 401);
      expectError(await api(t, method, url, who.member, body), 403, 'notAdmin');
    }
  });

  it('answers another team’s admin 404 for acme’s endpoint, and lists only their own', async () => {
    const { stream } = await addStream();
    for (const action of ['secret', 'pause', 'resume', 'test'])
      expectError(
        await api(t, 'POST', `/api/team/streams/${stream.id}/${action}`, who.otherAdmin),
        404,
        'notFound',
      );
    expectError(await api(t, 'DELETE', `/api/team/streams/${stream.id}`, who.otherAdmin), 404, 'notFound');
    const theirs = (await api(t, 'GET', '/api/team/streams', who.otherAdmin)).json() as EventStreamList;
    assert.deepEqual(theirs.streams, []);
    assert.equal(receiver.attempts, 0, 'their test sent nothing');
    assert.equal((await streamOf(stream.id)).state, 'active');
  });

  it('lets an admin who is not an owner add, rotate, pause, resume, test and remove', async () => {
    const { stream } = await addStream(receiver.url, who.admin);
    const url = `/api/team/streams/${stream.id}`;
    for (const action of ['secret', 'pause', 'resume', 'test'])
      assert.equal((await api(t, 'POST', `${url}/${action}`, who.admin)).statusCode, 200, action);
    assert.equal((await api(t, 'DELETE', url, who.admin)).statusCode, 204);
    const actions = await t.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('action', 'like', 'stream.%')
      .where('detail', 'like', `%${stream.id}%`)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      actions.map((a) => a.action),
      [
        'stream.added',
        'stream.secretRotated',
        'stream.paused',
        'stream.resumed',
        'stream.tested',
        'stream.removed',
      ],
    );
  });
});

describe('setting up an endpoint', () => {
  it('answers a Standard Webhooks secret once and keeps it sealed', async () => {
    const made = await addStream();
    assert.match(made.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    const list = await api(t, 'GET', '/api/team/streams', who.owner);
    assert.ok(!list.body.includes(made.secret.slice(6)), 'the secret is not listed');
    const row = await t.db.kysely
      .selectFrom('event_streams')
      .select('secret')
      .where('id', '=', made.stream.id)
      .executeTakeFirstOrThrow();
    assert.ok(!row.secret.includes(made.secret.slice(6)));
    assert.equal(made.stream.state, 'active');
    assert.equal(made.stream.pending, 0);
  });

  it('refuses plain http (but to this machine in the demo), odd addresses and a fourth endpoint', async () => {
    for (const [url, code] of [
      ['http://events.example.com/in', 'insecureUrl'],
      ['ftp://events.example.com/in', 'invalidUrl'],
      ['https://user:key@events.example.com/in', 'invalidUrl'],
      ['events.example.com', 'invalidUrl'],
    ] as const)
      expectError(await api(t, 'POST', '/api/team/streams', who.owner, { url }), 400, code, 'url');
    // The test server's own address is http://localhost: loopback http is the demo's allowance.
    assert.equal(
      (await api(t, 'POST', '/api/team/streams', who.owner, { url: 'http://127.0.0.1:9/x' })).statusCode,
      201,
    );
    await addStream();
    await addStream();
    expectError(
      await api(t, 'POST', '/api/team/streams', who.owner, { url: receiver.url }),
      409,
      'tooManyStreams',
    );
  });
});

describe('delivering the events', () => {
  it('delivers each event once, in order, signed, and through failures of the first deliveries', async () => {
    const { stream } = await addStream();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await event());
    receiver.failNext = 2;
    assert.equal(await t.app.services.streams.round(), 0, 'the first delivery fails: nothing after it goes');
    let status = await streamOf(stream.id);
    assert.equal(status.lastProblem, 'badStatus');
    assert.equal(status.lastStatus, 500);
    assert.ok(status.failingSince);
    assert.equal(status.pending, 6);
    // Not due yet: nothing is sent.
    const attempts = receiver.attempts;
    await t.app.services.streams.round();
    assert.equal(receiver.attempts, attempts);
    t.clock.advance(backoffMs(1));
    assert.equal(await t.app.services.streams.round(), 0, 'the second failure');
    t.clock.advance(backoffMs(2));
    assert.equal(await t.app.services.streams.round(), 6);
    assert.deepEqual(
      receiver.events.map((e) => e.id),
      ids,
    );
    assert.equal(receiver.repeats, 2, 'the failed first event came three times, and was kept once');
    assert.equal(receiver.badSignatures, 0);
    status = await streamOf(status.id);
    assert.equal(status.failingSince, null);
    assert.equal(status.pending, 0);
    assert.ok(status.lastDeliveryAt);
    // The body is the event as the log exports it.
    const first = receiver.events[0]!;
    assert.equal(first.type, 'group.created');
    assert.equal(first.actor?.email, 'ada@acme.test');
    assert.equal(await t.app.services.streams.round(), 0, 'nothing twice');
  });

  it('never sends a secret or token, and signs with the old secret beside the new one for a day', async () => {
    const made = await addStream();
    const rotated = (
      await api(t, 'POST', `/api/team/streams/${made.stream.id}/secret`, who.owner)
    ).json() as EventStreamWithSecret;
    assert.notEqual(rotated.secret, made.secret);
    await event();
    // A receiver still on the old secret verifies; so does one on the new.
    receiver.secrets = [made.secret];
    assert.equal(await t.app.services.streams.round(), 2, 'the rotation and the group');
    receiver.secrets = [rotated.secret];
    const test = (await api(t, 'POST', `/api/team/streams/${made.stream.id}/test`, who.owner)).json() as {
      result: StreamTestResult;
    };
    assert.deepEqual(test.result, { ok: true, status: 204, problem: null });
    assert.equal(receiver.badSignatures, 0);
    assert.equal(receiver.lastSignatures, 2);
    for (const body of receiver.bodies)
      for (const secret of [made.secret, rotated.secret])
        assert.ok(!body.includes(secret.slice(6)), 'no secret in an event');
    // A day later the old one no longer signs.
    t.clock.advance(24 * 3600_000);
    who = await callers(t);
    receiver.down = true;
    await api(t, 'POST', `/api/team/streams/${made.stream.id}/test`, who.owner);
    assert.equal(receiver.lastSignatures, 1);
  });

  it('queues nothing while paused, and goes on from where it was when resumed', async () => {
    const { stream } = await addStream();
    const before = await event();
    await api(t, 'POST', `/api/team/streams/${stream.id}/pause`, who.owner);
    await event();
    assert.equal(await t.app.services.streams.round(), 0, 'paused: nothing goes');
    await api(t, 'POST', `/api/team/streams/${stream.id}/resume`, who.owner);
    const afterwards = await event();
    await t.app.services.streams.round();
    await t.app.services.streams.round();
    const types = receiver.events.map((e) => e.type);
    assert.deepEqual(
      receiver.events.filter((e) => e.type === 'group.created').map((e) => e.id),
      [before, afterwards],
    );
    assert.deepEqual(types, ['group.created', 'stream.paused', 'group.created']);
  });

  it('answers what the test event met', async () => {
    const { stream } = await addStream();
    receiver.down = true;
    let answer = (await api(t, 'POST', `/api/team/streams/${stream.id}/test`, who.owner)).json() as {
      result: StreamTestResult;
    };
    assert.deepEqual(answer.result, { ok: false, status: 500, problem: 'badStatus' });
    const closed = await addStream('https://127.0.0.1:9/events');
    answer = (await api(t, 'POST', `/api/team/streams/${closed.stream.id}/test`, who.owner)).json() as {
      result: StreamTestResult;
    };
    assert.deepEqual(answer.result, { ok: false, status: null, problem: 'unreachable' });
    // Outside the demo, an address inside the network is refused when sent to.
    t.app.services.streams.outbound = { ca: receiver.cert, addressAllowed: isPublicAddress };
    try {
      answer = (await api(t, 'POST', `/api/team/streams/${stream.id}/test`, who.owner)).json() as {
        result: StreamTestResult;
      };
      assert.deepEqual(answer.result, { ok: false, status: null, problem: 'forbiddenAddress' });
    } finally {
      t.app.services.streams.outbound = { ca: receiver.cert };
    }
  });

  it('backs off, disables the endpoint after a day of failures and mails the owners', async () => {
    const { stream } = await addStream();
    const id = await event();
    receiver.down = true;
    await t.app.services.streams.round();
    let waits = 0;
    for (let failures = 1; ; failures++) {
      const row = await t.db.kysely
        .selectFrom('event_streams')
        .selectAll()
        .where('id', '=', stream.id)
        .executeTakeFirstOrThrow();
      if (row.state === 'disabled') break;
      assert.equal(row.failures, failures);
      assert.equal(row.next_attempt_at - t.clock.now() <= backoffMs(failures), true);
      // Just before it is due, nothing is tried.
      const attempts = receiver.attempts;
      t.clock.advance(backoffMs(failures) - 1000);
      await t.app.services.streams.round();
      assert.equal(receiver.attempts, attempts, `no attempt before the backoff of failure ${failures}`);
      t.clock.advance(1000);
      await t.app.services.streams.round();
      assert.equal(receiver.attempts, attempts + 1);
      waits += backoffMs(failures);
      assert.ok(failures < 60, 'disabled in time');
    }
    who = await callers(t);
    assert.ok(waits >= STREAM_DISABLE_AFTER_MS && waits < STREAM_DISABLE_AFTER_MS + 3600_000, String(waits));
    const mail = await smtp.next('ada@acme.test', /Event streaming to 127\.0\.0\.1:\d+ is turned off/);
    assert.match(mail.text, /For a day/);
    const status = await streamOf(stream.id);
    assert.equal(status.state, 'disabled');
    assert.ok(status.disabledAt);
    // Disabled: no new events wait for it; resumed, the one that failed goes first, then its disabling.
    await event();
    assert.equal((await streamOf(stream.id)).pending, 2);
    receiver.down = false;
    t.clock.offset = 0;
    who = await callers(t);
    await api(t, 'POST', `/api/team/streams/${stream.id}/resume`, who.owner);
    await t.app.services.streams.round();
    await t.app.services.streams.round();
    assert.equal(receiver.events[0]?.id, id);
    assert.deepEqual(
      receiver.events.map((e) => e.type),
      ['group.created', 'stream.disabled'],
    );
    const disabled = await t.db.kysely
      .selectFrom('audit_events')
      .select(['actor_id'])
      .where('action', '=', 'stream.disabled')
      .executeTakeFirstOrThrow();
    assert.equal(disabled.actor_id, null, 'the server disabled it');
  });
});

const postgres = process.env.TEST_POSTGRES === '1';
describe('two nodes on one PostgreSQL database', { skip: postgres ? false : 'PostgreSQL only' }, () => {
  let b: TestApp;
  before(async () => {
    b = await createTestApp({ DATABASE_URL: t.config.databaseUrl });
    b.app.services.streams.outbound = { ca: receiver.cert };
    b.app.services.streams.stop();
  });
  after(async () => {
    await b?.close();
  });

  it('delivers each event exactly once, each node’s events in the order they were written', async () => {
    await addStream();
    const ownerOnB = (await tokenFor(b.app, 'ada@acme.test')).accessToken;
    const written: string[][] = [[], []];
    let writing = true;
    // Both nodes deliver all along, while both write events one after another.
    const deliver = async (node: TestApp) => {
      while (writing) await node.app.services.streams.round();
    };
    const delivering = [deliver(t), deliver(b)];
    await Promise.all([
      (async () => {
        for (let i = 0; i < 60; i++) written[0]!.push(await event(t, who.owner));
      })(),
      (async () => {
        for (let i = 0; i < 60; i++) written[1]!.push(await event(b, ownerOnB));
      })(),
    ]);
    for (let i = 0; i < 5; i++)
      await Promise.all([t.app.services.streams.round(), b.app.services.streams.round()]);
    writing = false;
    await Promise.all(delivering);
    const got = receiver.events.map((e) => e.id);
    assert.equal(receiver.repeats, 0, 'no event came twice');
    assert.equal(receiver.badSignatures, 0);
    assert.equal(got.length, 120);
    for (const ids of written)
      assert.deepEqual(
        got.filter((id) => ids.includes(id)),
        ids,
      );
  });
});
