import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getActivity, type ActivityEvent } from '../../api/account';
import { WithTextPart } from '../../i18n/parts';
import { useElement } from '../../ui/element-context';
import { PanelLoading, ScreenLoading } from '../../ui/spinner';
import { useDeviceName } from './common';
import { Failed } from '../../ui/failed';
import { fullTime, timeAgo, useNow } from '../../ui/time';
import { useCall } from '../../ui/use-call';

/** The kinds this screen has words for; any other (a newer server's) reads as a general account change. */
const KINDS = new Set([
  'signIn',
  'passwordChanged',
  'passwordSet',
  'passwordReset',
  'providerConnected',
  'providerDisconnected',
  'sessionEnded',
  'otherSessionsEnded',
  'emailChanged',
  'emailChangeUndone',
  'twoStepOn',
  'twoStepOff',
  'twoStepMoved',
  'recoveryCodesRenewed',
  'recoveryCodeUsed',
  'passkeyAdded',
  'passkeyRemoved',
  'appAllowed',
  'appAccessRemoved',
  'breachCheckSkipped',
]);

/** Provider names are names: the same in every language. */
const PROVIDERS: Record<string, string> = {
  google: 'Google',
  Google: 'Google',
  azure: 'Microsoft',
  AzureAD: 'Microsoft',
  auth0: 'Auth0',
  Auth0: 'Auth0',
  apple: 'Apple',
  Apple: 'Apple',
};

/** The sign-in methods the log names in words; a provider is named by its own name. */
const METHODS = new Set(['password', 'invitation', 'twoStep', 'passkey', 'sso', 'emailCode']);

function Event({ event, now }: { event: ActivityEvent; now: number }) {
  const { t } = useTranslation();
  const { language } = useElement();
  const deviceName = useDeviceName();
  const failed = event.kind === 'signIn' && event.success === false;
  const kind = failed ? 'signInFailed' : KINDS.has(event.kind) ? event.kind : 'other';
  const provider = event.provider ? (PROVIDERS[event.provider] ?? event.provider) : '';
  const title = t(`activity.kinds.${kind}`, { provider, count: event.count ?? 0, app: event.app ?? '' });
  const method = event.method
    ? (PROVIDERS[event.method] ??
      (METHODS.has(event.method) ? t(`activity.methods.${event.method}`) : event.method))
    : null;
  const details = [
    method ? t('activity.method', { method }) : null,
    event.browser !== undefined || event.os !== undefined ? deviceName(event) : null,
    event.address ? t('sessions.address', { address: event.address }) : null,
  ].filter((text): text is string => text !== null);
  return (
    <li data-kind={kind} tabIndex={-1}>
      <span className={failed ? 'field-error' : undefined}>
        <strong>{title}</strong>
      </span>
      <span className="hint">{details.join(' · ')}</span>
      <time className="hint" dateTime={event.at} title={fullTime(event.at, language)}>
        {timeAgo(event.at, now, language)}
      </time>
    </li>
  );
}

function ActivityScreen() {
  const { t } = useTranslation();
  const call = useCall();
  const now = useNow();
  const [events, setEvents] = useState<ActivityEvent[] | null | 'failed'>(null);
  const [next, setNext] = useState<string | null>(null);
  const [more, setMore] = useState<'idle' | 'loading' | 'failed'>('idle');
  const [round, setRound] = useState(0);
  const listId = useId();
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    let live = true;
    call((ctx) => getActivity(ctx)).then(
      (page) => {
        if (!live) return;
        setEvents(page.events);
        setNext(page.next);
      },
      () => live && setEvents('failed'),
    );
    return () => {
      live = false;
    };
  }, [call, round]);

  const loadMore = useCallback(async () => {
    if (!next || !Array.isArray(events)) return;
    setMore('loading');
    const shown = events.length;
    try {
      const page = await call((ctx) => getActivity(ctx, next));
      setEvents([...events, ...page.events]);
      setNext(page.next);
      setMore('idle');
      // Focus the first new entry, so a keyboard user reads on where they were.
      requestAnimationFrame(() => list.current?.querySelectorAll<HTMLElement>('li')[shown]?.focus());
    } catch {
      setMore('failed');
    }
  }, [call, events, next]);

  return (
    <section className="panel" part="card" aria-labelledby={listId}>
      <h2 className="panel-title" id={listId}>
        {t('activity.listLabel')}
      </h2>
      <p className="hint">{t('activity.intro')}</p>
      {events === null ? (
        <PanelLoading />
      ) : events === 'failed' ? (
        <Failed retry={() => setRound((n) => n + 1)} />
      ) : events.length === 0 ? (
        <p className="hint">{t('activity.empty')}</p>
      ) : (
        <>
          <ul className="invites audit activity" ref={list}>
            {events.map((event) => (
              <Event key={event.id} event={event} now={now} />
            ))}
          </ul>
          {more === 'failed' ? <Failed retry={() => void loadMore()} /> : null}
          {next && more !== 'failed' ? (
            <button
              type="button"
              className="button secondary small"
              part="button"
              disabled={more === 'loading'}
              onClick={() => void loadMore()}
            >
              {more === 'loading' ? t('common.loading') : t('activity.more')}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}

/** `/manage/activity`: the user's security log, newest first, a page at a time. */
export default function ActivityPage() {
  return (
    <WithTextPart part="account" waiting={<ScreenLoading />} failed={<Failed />}>
      <ActivityScreen />
    </WithTextPart>
  );
}
