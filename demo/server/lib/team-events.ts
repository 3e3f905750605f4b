import type { TeamEvent } from '../../../src/contract/team-events';
import type { AuditEventsTable } from '../db/schema';

/** The stored row as the event leaves the server (export and streaming). */
export function toTeamEvent(row: AuditEventsTable): TeamEvent {
  return {
    id: row.id,
    type: row.action,
    time: new Date(row.created_at).toISOString(),
    actor: row.actor_id === null ? null : { id: row.actor_id, name: row.actor_name, email: row.actor_email },
    target: row.target,
    address: row.address,
    requestId: row.request_id,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
  };
}
