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

/** '5 minutes ago', 'yesterday'… in the element's language, for a time in the past. */
export function timeAgo(iso: string, now: number, language: string): string {
  const rtf = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const age = Math.max(0, now - Date.parse(iso));
  if (age < HOUR) return rtf.format(-Math.floor(age / MINUTE), 'minute');
  if (age < DAY) return rtf.format(-Math.floor(age / HOUR), 'hour');
  return rtf.format(-Math.floor(age / DAY), 'day');
}

/** The full date and time, for a tooltip. */
export function fullTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
