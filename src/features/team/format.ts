import type { TFunction } from 'i18next';
import type { Invitation } from '../../api/team';
import { calendarDays, relativeDays, timeAgo } from '../../ui/time';

const DAY = 24 * 60 * 60_000;
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
