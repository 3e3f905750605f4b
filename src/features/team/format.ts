import { sentenceList } from '../../i18n/list';
import { PROVIDER_NAMES } from '../../i18n/names';
import type { TFunction } from 'i18next';
import type { AuditEvent, Invitation } from '../../api/team';
import { calendarDays, relativeDays, timeAgo } from '../../ui/time';
import { SETUP_ACTOR_PREFIX } from '../../contract/team-rules';

const DAY = 24 * 60 * 60_000;

/** The day of `iso` in the interface's language ("12 Mar 2026"). */
export function dayText(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso));
}

/** When something last happened (a sign-in, an app's use): relative within a month ("3 days ago"), else the date. */
export function lastTime(iso: string | null, language: string, t: TFunction): string {
  if (!iso) return t('users.never');
  if (Math.abs(Date.parse(iso) - Date.now()) >= 30 * DAY) return dayText(iso, language);
  return timeAgo(iso, Date.now(), language);
}
/** An invitation reads 'Sent …' for its first three days, then when it expires (spec §2 sample). */
const SENT_FOR = 3 * DAY;

export { refusalOf } from '../../api/refusal';

export interface InvitationStatus {
  text: string;
  /** The time the text speaks of: when it was sent, or when it expires. */
  at: string;
  /** Shown in the error style: it expires today or tomorrow, or has expired. */
  urgent: boolean;
}

/**
 * An invitation's status from its timestamps — 'Sent 2 hours ago', 'Expires in 4 days', 'Expires
 * tomorrow' — its times in the one relative style of ui/time.
 */
export function invitationStatus(
  invitation: Invitation,
  now: number,
  t: TFunction,
  language: string,
): InvitationStatus {
  const sent = Date.parse(invitation.sentAt);
  const expires = Date.parse(invitation.expiresAt);
  if (expires <= now) return { text: t('team.status.expired'), at: invitation.expiresAt, urgent: true };
  if (now - sent < SENT_FOR) {
    const when = timeAgo(invitation.sentAt, now, language);
    return { text: t('team.status.sent', { when }), at: invitation.sentAt, urgent: false };
  }
  const when = relativeDays(invitation.expiresAt, now, language);
  const urgent = calendarDays(now, expires) <= 1;
  return { text: t('team.status.expires', { when }), at: invitation.expiresAt, urgent };
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/**
 * Storage as '90/100 GB': both in the unit that suits the limit (decimal, as storage is sold), the
 * number and unit written the language's way by Intl.NumberFormat.
 */
export function storageText(
  usedBytes: number,
  limitBytes: number,
  language: string,
): { used: string; limit: string } {
  let power = 0;
  while (power < UNITS.length - 1 && limitBytes >= 1000 ** (power + 1)) power++;
  const scale = 1000 ** power;
  const digits = { maximumFractionDigits: 1 };
  return {
    used: new Intl.NumberFormat(language, digits).format(usedBytes / scale),
    limit: new Intl.NumberFormat(language, { ...digits, style: 'unit', unit: UNITS[power] }).format(
      limitBytes / scale,
    ),
  };
}

/** The team's sign-in settings an admin turns on or off (team.loginOptions events). */
const OPTIONS = [
  'local',
  'google',
  'azure',
  'auth0',
  'apple',
  'passkeys',
  'emailCode',
  'requireTwoStep',
] as const;

/**
 * An admin action as one sentence naming who did what to whom: "Ada Lovelace added Bob Stone to
 * Platform Engineering", "Ada Lovelace turned on Google sign-in and turned off password sign-in",
 * "Bob Stone left the team". The member's name is the one recorded with the event (older events have
 * only the address); never an internal name or id.
 */
export function auditSentence(event: AuditEvent, language: string, t: TFunction): string {
  // An IT contact who came through a setup link is no member: named by the address it was sent to.
  const actor = event.actor?.id.startsWith(SETUP_ACTOR_PREFIX)
    ? t('team.log.setupActor', { email: event.actor.email })
    : (event.actor?.name ?? t('team.anApp'));
  const { detail } = event;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  const member = text(detail.name) ?? text(detail.member) ?? event.target;
  const list = (items: string[]) => sentenceList(items, language);
  switch (event.action) {
    case 'member.removed':
      return detail.self === true
        ? t('team.log.left', { actor })
        : t('team.log.member.removed', { actor, member });
    case 'member.permissions': {
      const to = Array.isArray(detail.to) ? detail.to : [];
      return to.length === 0
        ? t('team.log.member.permissionsNone', { actor, member })
        : t('team.log.member.permissions', {
            actor,
            member,
            permissions: list(to.map((p) => t(`manage.permissions.${p}`))),
          });
    }
    // Invited by nobody: a request its domain let through without an admin.
    case 'member.invited':
      return event.actor
        ? t('team.log.member.invited', { actor, email: event.target })
        : t('team.log.member.invitedByDomain', { email: event.target });
    case 'joinRequest.created':
      return t('team.log.joinRequest.created', { email: event.target });
    case 'joinRequest.approved':
      return event.actor
        ? t('team.log.joinRequest.approved', { actor, email: event.target })
        : t('team.log.joinRequest.approvedAutomatically', { email: event.target });
    case 'joinRequest.declined':
      return t('team.log.joinRequest.declined', { actor, email: event.target });
    case 'domain.autoJoin':
      return t(detail.automatic === true ? 'team.log.domain.autoJoinOn' : 'team.log.domain.autoJoinOff', {
        actor,
        domain: event.target,
      });
    case 'invitation.resent':
    case 'invitation.revoked':
    case 'invitation.accepted':
    case 'setupLink.created':
    case 'setupLink.revoked':
    case 'setupLink.opened':
      return t(`team.log.${event.action}`, { actor, email: event.target });
    case 'team.created':
      return t('team.log.team.created', { actor, team: event.target });
    case 'team.seatLimit':
      return t('team.log.team.seatLimit', { actor, limit: Number(detail.to ?? event.target) });
    case 'team.loginOptions': {
      // What was turned on first, then what was turned off.
      const changed = OPTIONS.filter((option) => typeof detail[option] === 'boolean');
      const changes = [
        ...changed.filter((option) => detail[option] === true),
        ...changed.filter((option) => detail[option] === false),
      ].map((option) =>
        t(detail[option] ? 'team.log.turnedOn' : 'team.log.turnedOff', {
          option: t(`team.log.options.${option}`),
        }),
      );
      return t('team.log.team.loginOptions', { actor, changes: list(changes) });
    }
    case 'group.renamed':
      return t('team.log.group.renamed', { actor, from: text(detail.from) ?? '', group: event.target });
    case 'group.memberAdded':
    case 'group.memberRemoved':
    case 'group.created':
    case 'group.deleted':
      return t(`team.log.${event.action}`, { actor, member, group: event.target });
    case 'app.registered':
    case 'app.changed':
    case 'app.secretRotated':
    case 'app.disabled':
    case 'app.enabled':
    case 'app.deleted':
      return t(`team.log.${event.action}`, { actor, app: event.target });
    case 'domain.added':
    case 'domain.removed':
      return t(`team.log.${event.action}`, { actor, domain: event.target });
    // The server's daily check has no member as actor; losing a domain is its rule, whoever looked.
    case 'domain.verified':
      return event.actor
        ? t('team.log.domain.verified', { actor, domain: event.target })
        : t('team.log.domain.verifiedByCheck', { domain: event.target });
    case 'domain.unverified':
      return t('team.log.domain.unverified', { domain: event.target });
    case 'domain.signIn': {
      const connection = text(detail.connection);
      if (!connection) return t('team.log.domain.signInOff', { actor, domain: event.target });
      return t(detail.required === true ? 'team.log.domain.signInRequired' : 'team.log.domain.signIn', {
        actor,
        domain: event.target,
        connection,
      });
    }
    // The provider vouched and the member was made: they are the actor, by their address.
    case 'member.joinedThroughSso':
      return t('team.log.member.joinedThroughSso', { email: event.target });
    case 'connection.added':
    case 'connection.changed':
    case 'connection.enabled':
    case 'connection.disabled':
    case 'connection.removed':
      return t(`team.log.${event.action}`, { actor, connection: event.target });
    case 'directory.added':
    case 'directory.tokenRotated':
    case 'directory.revoked':
      return t(`team.log.${event.action}`, { actor, directory: event.target });
    // The server turns an endpoint off after its day of failures: no member acted.
    case 'stream.disabled':
      return t('team.log.stream.disabled', { endpoint: event.target });
    case 'stream.added':
    case 'stream.secretRotated':
    case 'stream.paused':
    case 'stream.resumed':
    case 'stream.tested':
    case 'stream.removed':
      return t(`team.log.${event.action}`, { actor, endpoint: event.target });
    // A member's own security events: they are the actor (and the target).
    case 'user.signedIn':
    case 'user.signInFailed': {
      const method = text(detail.method);
      // A provider by its own brand, never translated; the others in the language.
      const name =
        method && method in PROVIDER_NAMES
          ? PROVIDER_NAMES[method as keyof typeof PROVIDER_NAMES]
          : method && (SIGN_IN_METHODS as readonly string[]).includes(method)
            ? t(`team.log.methods.${method}`)
            : null;
      return name
        ? t(`team.log.${event.action}`, { actor, method: name })
        : t(`team.log.${event.action}Plain`, { actor });
    }
    case 'user.providerConnected':
    case 'user.providerDisconnected':
      return t(`team.log.${event.action}`, { actor, provider: text(detail.provider) ?? '' });
    case 'user.appAllowed':
    case 'user.appAccessRemoved':
      return t(`team.log.${event.action}`, { actor, app: text(detail.app) ?? '' });
    default:
      return t(`team.log.${event.action}`, { actor, member });
  }
}

/** The sign-in methods the log names (the server's `method` of a sign-in); another reads plainly. */
const SIGN_IN_METHODS = ['password', 'twoStep', 'passkey', 'sso', 'invitation', 'auth0'] as const;
