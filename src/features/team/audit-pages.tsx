import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getAudit, type AuditEvent, type AuditList, type EventFilter } from '../../api/team';
import { useElement } from '../../ui/element-context';
import { Failed } from '../../ui/failed';
import { Spinner } from '../../ui/spinner';
import { ShowMore, useCall } from './admin-kit';
import { auditSentence } from './format';

type More = 'idle' | 'loading' | 'failed';

/**
 * The team's events a page at a time, newest first, narrowed by `filter` (null: none asked yet, e.g. a
 * range that crosses). The list is kept with the load it answers, so another filter, `round` (something
 * was just done) or a retry shows as loading (undefined) until its own answer; null when it failed.
 */
export function useAuditPages(filter: EventFilter | null, pageSize: number, round = 0) {
  const call = useCall();
  const [attempt, setAttempt] = useState(0);
  const key = JSON.stringify([round, attempt, filter]);
  const [loaded, setLoaded] = useState<{ key: string; list: AuditList | null } | null>(null);
  const [more, setMore] = useState<{ key: string; state: More } | null>(null);
  useEffect(() => {
    // The key holds the filter it was made from: the effect runs again exactly when either changes.
    const [, , asked] = JSON.parse(key) as [number, number, EventFilter | null];
    if (!asked) return;
    let live = true;
    call((ctx) => getAudit(ctx, { limit: pageSize, ...asked })).then(
      (list) => live && setLoaded({ key, list }),
      () => live && setLoaded({ key, list: null }),
    );
    return () => {
      live = false;
    };
  }, [call, key, pageSize]);
  const list = loaded?.key === key ? loaded.list : undefined;

  async function older() {
    if (!list?.next || !filter) return;
    setMore({ key, state: 'loading' });
    try {
      const page = await call((ctx) => getAudit(ctx, { limit: pageSize, before: list.next, ...filter }));
      setLoaded((current) =>
        current?.key === key && current.list
          ? { key, list: { events: [...current.list.events, ...page.events], next: page.next } }
          : current,
      );
      setMore({ key, state: 'idle' });
    } catch {
      setMore({ key, state: 'failed' });
    }
  }

  return {
    list,
    more: more?.key === key ? more.state : ('idle' as More),
    older: () => void older(),
    retry: () => setAttempt((n) => n + 1),
  };
}

/** A list of events as sentences: loading, failed (with a retry), empty, or the rows and "more". */
export function AuditEvents({
  pages,
  empty,
  moreLabel,
  className,
  labelledBy,
  when,
}: {
  pages: ReturnType<typeof useAuditPages>;
  empty: string;
  moreLabel: string;
  className: string;
  labelledBy?: string;
  /** The time (and whatever goes with it) shown beside each sentence. */
  when(event: AuditEvent): ReactNode;
}) {
  const { t } = useTranslation();
  const { language } = useElement();
  const { list } = pages;
  if (list === undefined)
    return (
      <div className="loading" role="status">
        <Spinner />
        <span>{t('common.loading')}</span>
      </div>
    );
  if (list === null) return <Failed retry={pages.retry} />;
  if (list.events.length === 0)
    return (
      <p className="hint" role="status">
        {empty}
      </p>
    );
  return (
    <>
      <ul className={className} aria-labelledby={labelledBy}>
        {list.events.map((event) => (
          <li key={event.id}>
            <span>{auditSentence(event, language, t)}</span>
            {when(event)}
          </li>
        ))}
      </ul>
      <ShowMore
        state={pages.more}
        hasMore={!!list.next}
        label={moreLabel}
        className="button secondary small"
        onMore={pages.older}
      />
    </>
  );
}
