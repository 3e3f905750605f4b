import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endOtherSessions, endSession, getSessions, type SessionEntry } from '../../api/account';
import { WithTextPart } from '../../i18n/parts';
import { noticesStore } from '../../state/notices';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useElement } from '../../ui/element-context';
import { PanelLoading, ScreenLoading } from '../../ui/spinner';
import { useDeviceName } from './common';
import { Failed } from '../../ui/failed';
import { fullTime, timeAgo, useNow } from '../../ui/time';
import { refusalOf } from '../../api/refusal';
import { useCall } from '../../ui/use-call';

type Loaded = SessionEntry[] | null | 'failed';
/** What the confirmation asks about: one session, or every other one. */
type Question = { kind: 'one'; session: SessionEntry } | { kind: 'others' };

function SessionsScreen() {
  const { t } = useTranslation();
  const { language } = useElement();
  const call = useCall();
  const now = useNow();
  const deviceName = useDeviceName();
  const [sessions, setSessions] = useState<Loaded>(null);
  const [round, setRound] = useState(0);
  const [question, setQuestion] = useState<Question | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const endOthersButton = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    call(getSessions).then(
      (list) => live && setSessions(list),
      () => live && setSessions('failed'),
    );
    return () => {
      live = false;
    };
  }, [call, round]);

  const ask = (next: Question) => {
    setQuestion(next);
    setAsking(true);
  };

  async function confirm() {
    if (!question) return;
    setBusy(true);
    try {
      if (question.kind === 'one') {
        await call((ctx) => endSession(ctx, question.session.id));
        setSessions((list) =>
          Array.isArray(list) ? list.filter((s) => s.id !== question.session.id) : list,
        );
        noticesStore.getState().show(['sessions.ended'], 'Success');
      } else {
        const count = await call(endOtherSessions);
        setSessions((list) => (Array.isArray(list) ? list.filter((s) => s.current) : list));
        noticesStore.getState().show(['sessions.endedOthers', { count }], 'Success');
      }
    } catch (error) {
      const { status } = refusalOf(error);
      noticesStore.getState().show(status === 404 ? ['sessions.gone'] : ['common.failed'], 'Failure');
    }
    setBusy(false);
    // The list as the server now has it (another browser may have signed in meanwhile).
    reload();
  }

  const others = Array.isArray(sessions) ? sessions.filter((s) => !s.current) : [];

  return (
    <>
      <section className="panel" part="card" aria-labelledby={listId}>
        <div className="panel-head">
          <h2 className="panel-title" id={listId} ref={heading} tabIndex={-1}>
            {t('sessions.listLabel')}
          </h2>
          {/* Only while there is another session: once they are ended, focus goes to the heading. */}
          {others.length > 0 ? (
            <button
              type="button"
              className="button secondary small"
              part="button"
              ref={endOthersButton}
              disabled={busy}
              onClick={() => ask({ kind: 'others' })}
            >
              {t('sessions.endOthers')}
            </button>
          ) : null}
        </div>
        <p className="hint">{t('sessions.intro')}</p>
        {sessions === null ? (
          <PanelLoading />
        ) : sessions === 'failed' ? (
          <Failed retry={reload} />
        ) : sessions.length === 0 ? (
          <p className="hint">{t('sessions.empty')}</p>
        ) : (
          <>
            <ul className="invites sessions">
              {sessions.map((session) => {
                const name = deviceName(session);
                return (
                  <li key={session.id} data-session={session.current ? 'current' : 'other'}>
                    <span className="session-name">
                      <strong>{name}</strong>
                      {session.current ? <span className="badge">{t('sessions.thisDevice')}</span> : null}
                      {session.address ? (
                        <span className="hint">{t('sessions.address', { address: session.address })}</span>
                      ) : null}
                    </span>
                    <span className="session-times hint">
                      {/* The exact time, not '2 hours ago': it is what tells two sessions of one browser apart. */}
                      <time dateTime={session.createdAt} title={timeAgo(session.createdAt, now, language)}>
                        {t('sessions.created', { when: fullTime(session.createdAt, language) })}
                      </time>
                      <time dateTime={session.lastActiveAt} title={fullTime(session.lastActiveAt, language)}>
                        {t('sessions.active', { when: timeAgo(session.lastActiveAt, now, language) })}
                      </time>
                    </span>
                    <span className="invite-actions">
                      {session.current ? null : (
                        <button
                          type="button"
                          className="button secondary small"
                          part="button"
                          aria-label={t('sessions.endLabel', {
                            device: name,
                            when: fullTime(session.createdAt, language),
                          })}
                          disabled={busy}
                          onClick={() => ask({ kind: 'one', session })}
                        >
                          {t('sessions.end')}
                        </button>
                      )}
                    </span>
                  </li>
                );
              })}
            </ul>
            {others.length === 0 ? <p className="hint">{t('sessions.onlyThis')}</p> : null}
          </>
        )}
      </section>
      {question ? (
        <ConfirmDialog
          open={asking}
          title={question.kind === 'one' ? t('sessions.confirm.title') : t('sessions.confirmOthers.title')}
          text={
            question.kind === 'one'
              ? t('sessions.confirm.text', {
                  device: deviceName(question.session),
                  when: fullTime(question.session.createdAt, language),
                })
              : t('sessions.confirmOthers.text')
          }
          action={question.kind === 'one' ? t('sessions.confirm.action') : t('sessions.confirmOthers.action')}
          // A refusal is told by a notice, and the list is read again: the dialog closes either way.
          onConfirm={confirm}
          onClose={() => setAsking(false)}
          returnFocus={() => endOthersButton.current ?? heading.current}
        />
      ) : null}
    </>
  );
}

/** `/manage/sessions`: where the user is signed in; end one session, or every other one. */
export default function SessionsPage() {
  return (
    <WithTextPart part="account" waiting={<ScreenLoading />} failed={<Failed />}>
      <SessionsScreen />
    </WithTextPart>
  );
}
