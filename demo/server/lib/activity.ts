import type { FastifyRequest } from 'fastify';
import UAParser from 'ua-parser-js';
import type { AuditAction } from '../../../src/contract/team-rules';
import type { MemberEvent } from '../db/activity';
import type { Session } from '../db/schema';
import { mailBrand, newDeviceMail } from '../mail/compose';
import { sessionOf } from './session';
import { answerLanguage } from './language';
import { clientAddress } from './normalise';
import { sendInBackground } from './notify';

/** The security log keeps 90 days (then the server purges it). */
export const ACTIVITY_KEEP_MS = 90 * 24 * 3600_000;
/** The purge runs at most this often, at the first write or read of the log after. */
const PURGE_EVERY_MS = 3600_000;
/** What is kept of a User-Agent header. */
const USER_AGENT_MAX = 512;

/**
 * The kinds of the log: an open list; the screens show an
 * unknown kind by a general text, so a newer server never breaks an older screen.
 */
export type ActivityKind =
  | 'signIn'
  | 'passwordChanged'
  | 'passwordSet'
  | 'passwordReset'
  | 'providerConnected'
  | 'providerDisconnected'
  | 'sessionEnded'
  | 'otherSessionsEnded'
  | 'emailChanged'
  | 'emailChangeUndone'
  | 'twoStepOn'
  | 'twoStepOff'
  | 'recoveryCodesRenewed'
  | 'recoveryCodeUsed'
  | 'passkeyAdded'
  | 'passkeyRemoved'
  | 'appAllowed'
  | 'appAccessRemoved'
  /** A new password was accepted without the breach check: the service did not answer. */
  | 'breachCheckSkipped'
  | (string & {});

/** A browser as the screens show it: family and operating system (no version: it changes monthly). */
export interface Agent {
  browser: string | null;
  os: string | null;
  /** `mobile`, `tablet`… when the parser knows; null for a desktop. */
  device: string | null;
}

export function describeAgent(userAgent: string | null | undefined): Agent {
  if (!userAgent) return { browser: null, os: null, device: null };
  const parsed = UAParser(userAgent);
  return {
    browser: parsed.browser.name ?? null,
    os: parsed.os.name ?? null,
    device: parsed.device.type ?? null,
  };
}

function userAgentOf(request: FastifyRequest): string | null {
  const header = request.headers['user-agent'];
  return header ? header.slice(0, USER_AGENT_MAX) : null;
}

/** The caller's address, when the deployment shows addresses (SESSION_ADDRESSES); else null. */
function addressOf(request: FastifyRequest): string | null {
  return request.server.services.config.sessionAddresses ? clientAddress(request.ip) : null;
}

const lastPurge = new WeakMap<object, number>();

/** Delete what is older than 90 days, at most once an hour per server. */
export async function purgeActivity(request: FastifyRequest): Promise<void> {
  const { repos, clock } = request.server.services;
  const now = clock.now();
  const last = lastPurge.get(request.server) ?? -Infinity;
  if (now - last < PURGE_EVERY_MS && now >= last) return;
  lastPurge.set(request.server, now);
  await repos.activity.purge(now - ACTIVITY_KEEP_MS);
}

/** The team log's type of each kind of the security log (a sign-in depends on its success). */
const TEAM_TYPES: Partial<Record<ActivityKind, AuditAction>> = {
  passwordChanged: 'user.passwordChanged',
  passwordSet: 'user.passwordSet',
  passwordReset: 'user.passwordReset',
  providerConnected: 'user.providerConnected',
  providerDisconnected: 'user.providerDisconnected',
  sessionEnded: 'session.ended',
  otherSessionsEnded: 'session.othersEnded',
  emailChanged: 'user.emailChanged',
  emailChangeUndone: 'user.emailChangeUndone',
  twoStepOn: 'user.twoStepEnabled',
  twoStepOff: 'user.twoStepDisabled',
  twoStepMoved: 'user.twoStepMoved',
  recoveryCodesRenewed: 'user.recoveryCodesRenewed',
  recoveryCodeUsed: 'user.recoveryCodeUsed',
  passkeyAdded: 'user.passkeyAdded',
  passkeyRemoved: 'user.passkeyRemoved',
  appAllowed: 'user.appAllowed',
  appAccessRemoved: 'user.appAccessRemoved',
};

/**
 * What the team's log keeps of an event's detail: only these plain choices and names (the address has
 * its own column, kept or not by the deployment) — whatever a caller adds later, never a secret.
 */
const TEAM_DETAIL = ['method', 'success', 'browser', 'os', 'device', 'provider', 'app', 'count'] as const;

/** The event the team's log records of a member's security event, on this request. */
export function teamEventOf(
  request: FastifyRequest,
  type: AuditAction,
  detail: Record<string, unknown>,
): MemberEvent {
  const kept: Record<string, unknown> = {};
  for (const key of TEAM_DETAIL) if (detail[key] !== undefined) kept[key] = detail[key];
  return { type, detail: kept, address: addressOf(request), requestId: request.id };
}

/**
 * Add an entry to the user's security log (and purge what is due), and in the same transaction the
 * event their team's log records of it.
 */
export async function recordActivity(
  request: FastifyRequest,
  userId: string,
  kind: ActivityKind,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const { repos, clock } = request.server.services;
  await purgeActivity(request);
  const type =
    kind === 'signIn' ? (detail.success === false ? 'user.signInFailed' : 'user.signedIn') : TEAM_TYPES[kind];
  const member = type ? teamEventOf(request, type, detail) : undefined;
  await repos.activity.record({ userId, kind, detail, now: clock.now() }, member);
}

/** A security event only the team's log records: a wrong second-step code, a sign-out. */
export async function recordMemberEvent(
  request: FastifyRequest,
  userId: string,
  type: AuditAction,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const { repos, clock } = request.server.services;
  await repos.activity.memberEvent(userId, teamEventOf(request, type, detail), clock.now());
}

/** The request's browser as the log records it. */
function agentDetail(request: FastifyRequest) {
  const agent = describeAgent(userAgentOf(request));
  return { ...agent, address: addressOf(request) };
}

/** A sign-in that failed for an account that exists: shown to its owner only. */
export async function recordFailedSignIn(
  request: FastifyRequest,
  userId: string,
  method: string,
): Promise<void> {
  await recordActivity(request, userId, 'signIn', { method, success: false, ...agentDetail(request) });
}

/**
 * A sign-in that succeeded on this request (after `beginSession`): describe the new session (browser,
 * address), log it, and mail the user when the browser is one the account has not signed in with before
 * (never for an account's very first browser: that mail would tell nothing).
 */
export async function recordSignIn(request: FastifyRequest, userId: string, method: string): Promise<void> {
  const { repos, clock, config } = request.server.services;
  const session: Session | null = await sessionOf(request);
  const userAgent = userAgentOf(request);
  const detail = { method, success: true, ...agentDetail(request) };
  if (session) await repos.activity.describeSession(session.id_hash, userAgent, detail.address);
  await recordActivity(request, userId, 'signIn', detail);
  const key = `${detail.browser ?? '?'}|${detail.os ?? '?'}|${detail.device ?? ''}`;
  const { fresh, known } = await repos.activity.rememberDevice(userId, key, clock.now());
  if (!fresh || known === 0) return;
  const account = await repos.activity.noticeAccount(userId);
  if (!account) return;
  const mail = newDeviceMail({
    language: answerLanguage(request, account.language),
    brand: mailBrand(account.brand ?? config.brand),
    name: account.name,
    team: account.display_name,
    device: [detail.browser, detail.os].filter(Boolean).join(', ') || '?',
    when: new Date(clock.now()),
    link: `${config.publicUrl}/manage/sessions`,
  });
  sendInBackground(request, { to: account.email, ...mail });
}
