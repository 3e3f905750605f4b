import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type ApiContext } from '../../api/client';
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

/** The status, `code` and `field` of a refused call (status 0: no answer). */
export function refusalOf(error: unknown): { status: number; code?: string; field?: string } {
  if (!(error instanceof ApiError)) return { status: 0 };
  const body = (error.body && typeof error.body === 'object' ? error.body : {}) as {
    code?: string;
    field?: string;
  };
  return { status: error.status, code: body.code, field: body.field };
}

/**
 * The user closed the browser's passkey prompt, or it timed out: WebAuthn says `NotAllowedError` for
 * both (on purpose, so a page cannot tell which), and @simplewebauthn keeps that name on its own error.
 */
export function isCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
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

/** Something loaded from the server: not yet, failed, or there. */
export type Loaded<T> = T | null | 'failed';

/** Load with `load` now and again on `reload()`; the last answer wins. */
export function useLoaded<T>(load: () => Promise<T>): [Loaded<T>, () => void, (value: T) => void] {
  const [value, setValue] = useState<Loaded<T>>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (answer) => live && setValue(answer),
      () => live && setValue('failed'),
    );
    return () => {
      live = false;
    };
  }, [load, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return [value, reload, setValue];
}
