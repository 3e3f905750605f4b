import { randomBytes, randomUUID } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../config';
import type { DeliveryOutcome } from '../db/event-streams';
import type { Repositories } from '../db/repositories';
import type { EventStreamsTable } from '../db/schema';
import { mailBrand, streamDisabledMail } from '../mail/compose';
import { mailOwners } from './notify';
import type { Clock } from './clock';
import type { Mailer } from './mailer';
import {
  isPublicAddress,
  OutboundError,
  outboundUrlProblem,
  postGuarded,
  type OutboundOptions,
} from './outbound';
import type { Sealer } from './sealing';
import { toTeamEvent } from './team-events';
import {
  STREAM_DISABLE_AFTER_MS,
  STREAM_SECRET_OVERLAP_MS,
  STREAM_TEST_TYPE,
  type StreamProblem,
} from '../../../src/contract/event-streams';
import type { TeamEvent } from '../../../src/contract/team-events';

/** How often each node looks for endpoints with events waiting. */
const ROUND_MS = 1_000;
/** Endpoints one round claims, delivered to side by side (each one's events one after another). */
const CLAIM = 8;
/** A claim lasts this long: a node that stops mid-round leaves the endpoint to another after it. */
const LEASE_MS = 120_000;
/** No new send starts this long after the claim, so the claim outlives the round's last send. */
const SEND_WINDOW_MS = 60_000;
/** Events read per endpoint per round. */
const BATCH = 100;
/** One delivery's whole request; a slower endpoint counts as failing. */
const TIMEOUT_MS = 10_000;
/** The backoff: the first retry after this, doubling with each failure in a row, at most {@link MAX_DELAY_MS}. */
const FIRST_DELAY_MS = 10_000;
const MAX_DELAY_MS = 3600_000;

/** A new signing secret: 24 random bytes, base64, with Standard Webhooks' `whsec_` prefix. */
export function newStreamSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The sealing context of an endpoint's secrets (a sealed secret copied to another row does not open). */
export const secretContext = (id: string) => `event-stream:${id}`;

/** The wait before the next attempt after `failures` failures in a row (1 for the first). */
export function backoffMs(failures: number): number {
  return Math.min(FIRST_DELAY_MS * 2 ** Math.max(0, failures - 1), MAX_DELAY_MS);
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Why an endpoint address is refused, or null: https with a host and no credentials; plain http only
 * where this site itself runs on http (the demo, the tests), and then only to this machine. Its
 * addresses are checked again at each delivery (lib/outbound.ts).
 */
export function streamUrlProblem(url: string, allowHttp: boolean): StreamProblem | null {
  const problem = outboundUrlProblem(url, allowHttp);
  if (problem) return problem === 'insecureUrl' ? 'insecureUrl' : 'invalidUrl';
  const parsed = new URL(url);
  if (parsed.protocol === 'http:' && !LOOPBACK.test(parsed.hostname)) return 'insecureUrl';
  return null;
}

/** What one send met: a 2xx, or why not. */
export type SendResult =
  { ok: true; status: number } | { ok: false; problem: StreamProblem; status: number | null };

/**
 * The delivery of the teams' events to their streaming endpoints (docs/decisions/event-streaming.md).
 * Every node runs a round each second: it claims endpoints with events waiting (db/event-streams.ts
 * `claim`), sends each one's events in order, signed per Standard Webhooks, and stops at its first
 * failure so the order holds; the failure sets the next attempt by exponential backoff, and an endpoint
 * failing for a day is disabled and its team's owners mailed.
 */
export class StreamDelivery {
  private timer: NodeJS.Timeout | undefined;
  /** The rounds of this node, one after another: a round asked for during one runs after it. */
  private running: Promise<number> = Promise.resolve(0);
  /** Outbound options beyond the configured ones (the tests trust their receiver's certificate). */
  outbound: Partial<OutboundOptions> = {};

  constructor(
    private readonly deps: {
      config: Config;
      repos: Repositories;
      clock: Clock;
      sealer: Sealer;
      mailer: Mailer;
      log: FastifyBaseLogger;
    },
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.round(), ROUND_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One round (after any running one): how many events this node delivered. */
  round(): Promise<number> {
    this.running = this.running.then(
      () => this.roundNow(),
      () => this.roundNow(),
    );
    return this.running;
  }

  private async roundNow(): Promise<number> {
    const { repos, clock, log } = this.deps;
    try {
      const holder = randomUUID();
      const claimed = await repos.eventStreams.claim(holder, clock.now(), clock.now() + LEASE_MS, CLAIM);
      const counts = await Promise.all(claimed.map((stream) => this.deliver(stream, holder)));
      return counts.reduce((sum, n) => sum + n, 0);
    } catch (error) {
      log.error({ err: error }, 'a round of event deliveries failed');
      return 0;
    }
  }

  /** The claimed endpoint's waiting events, in order, until the first failure. */
  private async deliver(stream: EventStreamsTable, holder: string): Promise<number> {
    const { repos, clock } = this.deps;
    const started = clock.now();
    const pending = await repos.eventStreams.pending(stream.id, BATCH);
    let outcome: DeliveryOutcome = { delivered: 0, lastSeq: null, failure: null };
    // One kept-alive connection for the round's sends (one TLS handshake, not one per event).
    const agent = new (stream.url.startsWith('https:') ? HttpsAgent : HttpAgent)({
      keepAlive: true,
      maxSockets: 1,
    });
    try {
      for (const { seq, event } of pending) {
        if (clock.now() - started > SEND_WINDOW_MS) break;
        const result = await this.send(stream, toTeamEvent(event), agent);
        if (!result.ok) {
          const now = clock.now();
          const failures = stream.failures + 1;
          outcome = {
            ...outcome,
            failure: {
              problem: result.problem,
              status: result.status,
              nextAttemptAt: now + backoffMs(failures),
              disable: now - (stream.failing_since ?? now) >= STREAM_DISABLE_AFTER_MS,
            },
          };
          break;
        }
        outcome = { delivered: outcome.delivered + 1, lastSeq: seq, failure: null };
      }
    } finally {
      agent.destroy();
    }
    const disabled = await repos.eventStreams.finish(stream, holder, outcome, clock.now());
    if (disabled) await this.tellOwners(stream);
    return outcome.delivered;
  }

  /**
   * One event to the endpoint: the body is the event as JSON; `webhook-id` is its id (the same at every
   * retry, so receivers drop a repeat), `webhook-signature` its signature with the secret — and with
   * the previous secret too for a day after a rotation.
   */
  async send(stream: EventStreamsTable, event: TeamEvent, agent?: HttpAgent): Promise<SendResult> {
    const { config, sealer, clock } = this.deps;
    const body = JSON.stringify(event);
    const at = new Date(clock.now());
    const secrets = [sealer.open(stream.secret, secretContext(stream.id))];
    if (
      stream.previous_secret &&
      stream.rotated_at !== null &&
      at.getTime() - stream.rotated_at < STREAM_SECRET_OVERLAP_MS
    )
      secrets.push(sealer.open(stream.previous_secret, secretContext(stream.id)));
    const signature = secrets.map((secret) => new Webhook(secret).sign(event.id, at, body)).join(' ');
    try {
      const { status } = await postGuarded(
        stream.url,
        {
          body,
          headers: {
            'content-type': 'application/json',
            'user-agent': `${mailBrand(config.brand).name} event stream`,
            'webhook-id': event.id,
            'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
            'webhook-signature': signature,
          },
        },
        {
          allowHttp: new URL(config.publicUrl).protocol === 'http:',
          addressAllowed: config.outboundPrivateAddresses ? () => true : isPublicAddress,
          timeoutMs: TIMEOUT_MS,
          maxBytes: 64 * 1024,
          accept: '*/*',
          ...(agent && { agent }),
          ...this.outbound,
        },
      );
      return { ok: true, status };
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      const problem: StreamProblem =
        error.problem === 'badStatus' ||
        error.problem === 'timeout' ||
        error.problem === 'forbiddenAddress' ||
        error.problem === 'insecureUrl' ||
        error.problem === 'invalidUrl'
          ? error.problem
          : 'unreachable';
      return { ok: false, problem, status: error.status };
    }
  }

  /** The Send test button: a `stream.test` event to this endpoint only, now, whatever its state. */
  test(stream: EventStreamsTable, actor: { id: string; name: string; email: string }): Promise<SendResult> {
    const now = this.deps.clock.now();
    return this.send(stream, {
      id: `test_${randomUUID()}`,
      type: STREAM_TEST_TYPE,
      time: new Date(now).toISOString(),
      actor: { id: actor.id, name: actor.name, email: actor.email },
      target: new URL(stream.url).host,
      address: null,
      requestId: null,
      detail: { streamId: stream.id },
    });
  }

  /** Mails each owner of the endpoint's team, in their language, that it was disabled. */
  private async tellOwners(stream: EventStreamsTable): Promise<void> {
    const endpoint = new URL(stream.url).host;
    await mailOwners(this.deps, stream.team_id, (owner) => streamDisabledMail({ ...owner, endpoint }));
  }
}
