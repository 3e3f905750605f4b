import { useEffect, useState } from 'react';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The clock relative times are read against, moving on every minute. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), MINUTE);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Whole calendar days from `now` to `then`, in the browser's time zone ('tomorrow' means the date). */
export function calendarDays(now: number, then: number): number {
  const day = (ms: number) => {
    const date = new Date(ms);
    return Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  };
  return Math.round((day(then) - day(now)) / DAY);
}

/** 'today', 'tomorrow', 'in 4 days', 'yesterday'… by the date, in the element's language. */
export function relativeDays(iso: string, now: number, language: string): string {
  const rtf = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  return rtf.format(calendarDays(now, Date.parse(iso)), 'day');
}

/**
 * The one relative-time style of every screen: Intl.RelativeTimeFormat in the element's language with
 * numeric 'auto' ('this minute', '5 minutes ago', 'yesterday', 'in 3 hours'): minutes within the hour,
 * hours within the day, then calendar days. Sentences around it take it whole ("Sent {{when}}"), so no
 * screen words a time its own way.
 */
export function relativeTime(iso: string, now: number, language: string): string {
  const rtf = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const diff = Date.parse(iso) - now;
  const abs = Math.abs(diff);
  // `|| 0`: -0 would read '0 minutes ago' in some languages rather than 'this minute'.
  if (abs < HOUR) return rtf.format(Math.trunc(diff / MINUTE) || 0, 'minute');
  if (abs < DAY) return rtf.format(Math.trunc(diff / HOUR) || 0, 'hour');
  return relativeDays(iso, now, language);
}

/**
 * `relativeTime` of something that has happened: a time a little ahead of this browser's clock (the
 * server's clock runs ahead) reads 'this minute', never 'in 1 minute'.
 */
export function timeAgo(iso: string, now: number, language: string): string {
  return relativeTime(new Date(Math.min(Date.parse(iso), now)).toISOString(), now, language);
}

/** The full date and time, for a tooltip. */
export function fullTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
