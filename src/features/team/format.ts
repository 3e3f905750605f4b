import type { TFunction } from 'i18next';
import type { Invitation } from '../../api/team';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** An invitation reads 'Sent – …' for its first three days, then how long it has left (spec §2 sample). */
const SENT_FOR = 3 * DAY;

export { refusalOf } from '../../api/refusal';

export interface InvitationStatus {
  text: string;
  /** The time the text speaks of: when it was sent, or when it expires. */
  at: string;
  /** Shown in the error style: it expires today or tomorrow, or has expired. */
  urgent: boolean;
}

/** Whole calendar days from `now` to `then`, in the browser's time zone (so 'Tomorrow' means the date). */
function calendarDays(now: number, then: number): number {
  const day = (ms: number) => {
    const date = new Date(ms);
    return Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  };
  return Math.round((day(then) - day(now)) / DAY);
}

/** An invitation's status from its timestamps: 'Sent – 2 Hours Ago', 'Expires – 4 days', 'Expires – Tomorrow'. */
export function invitationStatus(invitation: Invitation, now: number, t: TFunction): InvitationStatus {
  const sent = Date.parse(invitation.sentAt);
  const expires = Date.parse(invitation.expiresAt);
  const ends = (text: string, urgent: boolean) => ({ text, at: invitation.expiresAt, urgent });
  const sentText = (text: string) => ({ text, at: invitation.sentAt, urgent: false });
  if (expires <= now) return ends(t('team.status.expired'), true);
  const age = Math.max(0, now - sent);
  if (age < SENT_FOR) {
    if (age < MINUTE) return sentText(t('team.status.sentNow'));
    if (age < HOUR) return sentText(t('team.status.sentMinutes', { count: Math.floor(age / MINUTE) }));
    if (age < DAY) return sentText(t('team.status.sentHours', { count: Math.floor(age / HOUR) }));
    return sentText(t('team.status.sentDays', { count: Math.floor(age / DAY) }));
  }
  const days = calendarDays(now, expires);
  if (days <= 0) return ends(t('team.status.expiresToday'), true);
  if (days === 1) return ends(t('team.status.expiresTomorrow'), true);
  return ends(t('team.status.expiresDays', { count: days }), false);
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
