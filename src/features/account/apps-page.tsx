import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getConnectedApps, removeApp, type ConnectedApp } from '../../api/apps';
import { refusalOf } from '../../api/refusal';
import { WithTextPart } from '../../i18n/parts';
import { noticesStore } from '../../state/notices';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useElement } from '../../ui/element-context';
import { Failed } from '../../ui/failed';
import { PanelLoading, ScreenLoading } from '../../ui/spinner';
import { fullTime, timeAgo, useNow } from '../../ui/time';
import { useCall } from '../../ui/use-call';
import { ScopeList } from './scope-list';

type Loaded = ConnectedApp[] | null | 'failed';

function AppsScreen() {
  const { t } = useTranslation();
  const { language } = useElement();
  const call = useCall();
  const now = useNow();
  const [apps, setApps] = useState<Loaded>(null);
  const [round, setRound] = useState(0);
  const [question, setQuestion] = useState<ConnectedApp | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const heading = useRef<HTMLHeadingElement>(null);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    call(getConnectedApps).then(
      (list) => live && setApps(list),
      () => live && setApps('failed'),
    );
    return () => {
      live = false;
    };
  }, [call, round]);

  async function confirm() {
    if (!question) return;
    setBusy(true);
    try {
      await call((ctx) => removeApp(ctx, question.id));
      setApps((list) => (Array.isArray(list) ? list.filter((app) => app.id !== question.id) : list));
      noticesStore.getState().show(['apps.removed', { app: question.name }], 'Success');
    } catch (error) {
      const { status } = refusalOf(error);
      noticesStore.getState().show(status === 404 ? ['apps.gone'] : ['common.failed'], 'Failure');
    }
    setBusy(false);
    reload();
  }

  return (
    <>
      <section className="panel" part="card" aria-labelledby={listId}>
        <div className="panel-head">
          <h2 className="panel-title" id={listId} ref={heading} tabIndex={-1}>
            {t('apps.listLabel')}
          </h2>
        </div>
        <p className="hint">{t('apps.intro')}</p>
        {apps === null ? (
          <PanelLoading />
        ) : apps === 'failed' ? (
          <Failed retry={reload} />
        ) : apps.length === 0 ? (
          <p className="hint">{t('apps.empty')}</p>
        ) : (
          <ul className="invites sessions">
            {apps.map((app) => (
              <li key={app.id} data-app={app.id}>
                <span className="session-name">
                  <strong>{app.name}</strong>
                  <span className="badge">
                    {app.thirdParty ? t('apps.thirdParty') : t('apps.firstParty')}
                  </span>
                </span>
                <span className="session-times hint">
                  <ScopeList scopes={app.scopes} identity />
                  {app.lastUsedAt ? (
                    <time dateTime={app.lastUsedAt} title={fullTime(app.lastUsedAt, language)}>
                      {t('apps.lastUsed', { when: timeAgo(app.lastUsedAt, now, language) })}
                    </time>
                  ) : null}
                </span>
                <span className="invite-actions">
                  <button
                    type="button"
                    className="button secondary small"
                    part="button"
                    aria-label={t('apps.removeLabel', { app: app.name })}
                    disabled={busy}
                    onClick={() => {
                      setQuestion(app);
                      setAsking(true);
                    }}
                  >
                    {t('apps.remove')}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {question ? (
        <ConfirmDialog
          open={asking}
          title={t('apps.confirm.title', { app: question.name })}
          text={t('apps.confirm.text', { app: question.name })}
          action={t('apps.confirm.action')}
          // A refusal is told by a notice, and the list is read again: the dialog closes either way.
          onConfirm={confirm}
          onClose={() => setAsking(false)}
          returnFocus={() => heading.current}
        />
      ) : null}
    </>
  );
}

/** `/manage/apps`: the apps the user has signed in to or allowed; remove an app's access. */
export default function AppsPage() {
  return (
    <WithTextPart part="account" waiting={<ScreenLoading />} failed={<Failed />}>
      <AppsScreen />
    </WithTextPart>
  );
}
