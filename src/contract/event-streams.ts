/**
 * A team's event streams: HTTPS endpoints that receive each of the team's events, signed per Standard
 * Webhooks (docs/decisions/event-streaming.md).
 */

/** `active` receives the events; `paused` by an admin; `disabled` after failing for a day. */
export const STREAM_STATES = ['active', 'paused', 'disabled'] as const;
export type StreamState = (typeof STREAM_STATES)[number];

/** Why the last delivery failed: the endpoint's answer, or no answer to use. */
export const STREAM_PROBLEMS = [
  'badStatus',
  'timeout',
  'unreachable',
  'forbiddenAddress',
  'insecureUrl',
  'invalidUrl',
] as const;
export type StreamProblem = (typeof STREAM_PROBLEMS)[number];

/** How many endpoints a team may have. */
export const STREAMS_MAX = 3;
/** The longest endpoint address accepted. */
export const STREAM_URL_LENGTH = 2000;
/** An endpoint failing this long (since its first failure in a row) is disabled and the owners told. */
export const STREAM_DISABLE_AFTER_MS = 24 * 3600_000;
/** After a new secret, the old one still signs (a second signature) this long, so receivers can switch. */
export const STREAM_SECRET_OVERLAP_MS = 24 * 3600_000;
/** The type of the event the Send test button sends (to that endpoint only, never queued). */
export const STREAM_TEST_TYPE = 'stream.test';
