/**
 * A team's event as it leaves the server: in the event log's export (JSON, and CSV by the same fields)
 * and in each delivery to the team's streaming endpoint. A stable catalogue: fields are only added.
 * Never a secret, a token or a password hash: `detail` holds names, ids and choices only.
 */
export interface TeamEvent {
  /** Unique, sorts by time. */
  id: string;
  /** One of the catalogue's types, e.g. `member.invited` or `user.signedIn`. */
  type: string;
  /** ISO 8601, UTC, milliseconds. */
  time: string;
  /** Who acted, as they were named then; null for a team API client or a directory. */
  actor: { id: string; name: string | null; email: string | null } | null;
  /** Whom or what the event is about, as text. */
  target: string;
  /** Where the request came from, when the team keeps addresses. */
  address: string | null;
  /** The server's id of the request, to match the event with the server's log. */
  requestId: string | null;
  detail: Record<string, unknown>;
}
