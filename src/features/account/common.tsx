import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiContext } from '../../api/client';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { useElement } from '../../ui/element-context';

/** Ask with the signed-in user's token (a fresh one once if it expired). */
export function useCall() {
  const { language } = useElement();
  return useCallback(
    <T,>(call: (ctx: ApiContext) => Promise<T>) => sessionStore.getState().authorized(call, language),
    [language],
  );
}

/** The clock relative times are read against, moving on every minute. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export { refusalOf } from '../../api/refusal';

export function Failed({ retry }: { retry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert tone="error">
      <p>{t('common.failed')}</p>
      {retry ? (
        <button type="button" className="button secondary small" part="button" onClick={retry}>
          {t('common.retry')}
        </button>
      ) : null}
    </Alert>
  );
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** '5 minutes ago', 'yesterday'… in the element's language. */
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

/** 'Chrome on Windows', with a general word for what the server could not tell. */
export function useDeviceName() {
  const { t } = useTranslation();
  return (agent: { browser?: string | null; os?: string | null }) =>
    t('sessions.device', {
      browser: agent.browser ?? t('sessions.unknownBrowser'),
      os: agent.os ?? t('sessions.unknownOs'),
    });
}
