/**
 * The `streams` part: how fast a node delivers a team's events to its streaming endpoint — a loopback
 * HTTPS receiver that verifies every delivery with the `standardwebhooks` library — and what an endpoint
 * adds to writing an event (recordAudit queues a delivery in the same transaction). In-process, on the
 * SQLite test database; each figure the median of its rounds.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../../../demo/server/db/audit';
import { hashBound, spread } from '../harness';
import { fixed, heading, table } from '../output';
import { QUICK, SETTINGS } from '../settings';
import { callers, api } from '../../support/team-admin';
import { createTestApp, type TestApp } from '../../support/test-server';
import { Receiver } from '../../support/webhook-receiver';

const EVENTS = QUICK ? 300 : 2000;

/** Writes `count` events of acme, each in a transaction of its own as an action's: events per second. */
async function writeEvents(t: TestApp, teamId: string, count: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++)
    await t.db.kysely.transaction().execute((trx) =>
      recordAudit(trx, {
        teamId,
        actor: null,
        action: 'group.created',
        target: `Bench group ${randomUUID()}`,
        now: t.clock.now(),
      }),
    );
  return (count * 1000) / (performance.now() - start);
}

export async function streams() {
  const receiver = await Receiver.start();
  const t = await createTestApp();
  const delivery = t.app.services.streams;
  delivery.stop();
  delivery.outbound = { ca: receiver.cert };
  const rounds: Array<{ writePlain: number; writeStreamed: number; delivered: number }> = [];
  try {
    const who = await callers(t);
    const team = await t.db.kysely
      .selectFrom('teams')
      .select('id')
      .where('name', '=', 'acme')
      .executeTakeFirstOrThrow();
    for (let round = 0; round < SETTINGS.rounds; round++) {
      await t.db.kysely.deleteFrom('event_streams').execute();
      const writePlain = await writeEvents(t, team.id, EVENTS);
      const made = await api(t, 'POST', '/api/team/streams', who.owner, { url: receiver.url });
      if (made.statusCode !== 201) throw new Error(`the endpoint was not added: ${made.body}`);
      receiver.reset();
      receiver.secrets = [(made.json() as { secret: string }).secret];
      const writeStreamed = await writeEvents(t, team.id, EVENTS);
      const start = performance.now();
      while (receiver.events.length < EVENTS) {
        if ((await delivery.round()) === 0) throw new Error(`stalled at ${receiver.events.length} events`);
      }
      const delivered = (EVENTS * 1000) / (performance.now() - start);
      if (receiver.repeats || receiver.badSignatures)
        throw new Error(`${receiver.repeats} repeats, ${receiver.badSignatures} bad signatures`);
      rounds.push({ writePlain, writeStreamed, delivered });
    }
  } finally {
    await t.close();
    await receiver.close();
  }
  const median = (pick: (r: (typeof rounds)[number]) => number) => spread(rounds.map(pick)).median;
  // A sign-in writes one team event (with its delivery, when the team streams) on the event loop, and
  // checks one password at the server's hash cost on the thread pool: the event's time against the
  // sign-in's at the hash bound is the most it can take from sign-in throughput.
  const hashesPerSecond = await hashBound(SETTINGS.boundSeconds);
  const writesPerSecondWith = median((r) => r.writeStreamed);
  const result = {
    events: EVENTS,
    deliveredPerSecond: median((r) => r.delivered),
    writesPerSecondWithout: median((r) => r.writePlain),
    writesPerSecondWith,
    hashesPerSecond,
    eventShareOfSignIn: hashesPerSecond / writesPerSecondWith,
    rounds,
  };
  heading(
    `Event streaming (${EVENTS} events, one endpoint on loopback HTTPS, SQLite, ${SETTINGS.rounds} rounds)`,
  );
  console.log(
    'Deliveries are sent one after another (in order), on one kept-alive connection per round, verified by the receiver.\n',
  );
  table(
    ['figure', 'events/s (median)', 'rounds'],
    [
      [
        'delivered to the endpoint',
        fixed(result.deliveredPerSecond),
        rounds.map((r) => fixed(r.delivered)).join(', '),
      ],
      [
        'written, no endpoint',
        fixed(result.writesPerSecondWithout),
        rounds.map((r) => fixed(r.writePlain)).join(', '),
      ],
      [
        'written, one endpoint',
        fixed(result.writesPerSecondWith),
        rounds.map((r) => fixed(r.writeStreamed)).join(', '),
      ],
    ],
    [false, true, false],
  );
  console.log(
    `\nA sign-in at the password-hash bound (${fixed(hashesPerSecond, 1)}/s) against one event written with an endpoint: the event is ${fixed(result.eventShareOfSignIn * 100, 2)} % of the sign-in's time.`,
  );
  return result;
}
