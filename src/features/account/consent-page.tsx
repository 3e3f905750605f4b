import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { answerConsent, getConsent, type ConsentDetails } from '../../api/apps';
import { refusalOf } from '../../api/refusal';
import { WithTextPart } from '../../i18n/parts';
import { Alert } from '../../ui/alert';
import { Failed } from '../../ui/failed';
import { useRouter } from '../../ui/router';
import { ScreenLoading, Spinner } from '../../ui/spinner';
import { useCall } from '../../ui/use-call';
import { ScopeList } from './scope-list';
import '../../styles/screens-sheet';

type Loaded = ConsentDetails | null | 'gone' | 'failed';

/** The interaction's id in `/consent/:uid`. */
const uidOf = (path: string) => decodeURIComponent(path.replace(/^\/consent\//, '').replace(/\/+$/, ''));

function ConsentScreen({ go }: { go: (address: string) => void }) {
  const { t } = useTranslation();
  const call = useCall();
  const uid = uidOf(useRouter().location.path);
  const [details, setDetails] = useState<Loaded>(null);
  const [round, setRound] = useState(0);
  const [busy, setBusy] = useState<'allow' | 'deny' | null>(null);
  const [failed, setFailed] = useState(false);
  const titleId = useId();
  const problem = useRef<HTMLDivElement>(null);

  const reload = useCallback(() => {
    setDetails(null);
    setRound((n) => n + 1);
  }, []);
  useEffect(() => {
    let live = true;
    call((ctx) => getConsent(ctx, uid)).then(
      (found) => live && setDetails(found),
      (error: unknown) => live && setDetails(refusalOf(error).status === 404 ? 'gone' : 'failed'),
    );
    return () => {
      live = false;
    };
  }, [call, uid, round]);

  useEffect(() => {
    if (failed) problem.current?.focus();
  }, [failed]);

  async function answer(allow: boolean) {
    setBusy(allow ? 'allow' : 'deny');
    setFailed(false);
    try {
      // The browser goes back through the provider to the app, with its answer.
      go(await call((ctx) => answerConsent(ctx, uid, allow)));
    } catch (error) {
      setBusy(null);
      if (refusalOf(error).status === 404) setDetails('gone');
      else setFailed(true);
    }
  }

  if (details === null) return <ScreenLoading />;
  if (details === 'failed') return <Failed retry={reload} />;
  return (
    <section className="panel stack" part="card" aria-labelledby={titleId}>
      {details === 'gone' ? (
        <>
          <h1 className="panel-title" id={titleId}>
            {t('consent.goneTitle')}
          </h1>
          <p>{t('consent.gone')}</p>
        </>
      ) : (
        <>
          <h1 className="panel-title" id={titleId}>
            {t('consent.title', { app: details.app })}
          </h1>
          <p>{t('consent.intro', { app: details.app, team: details.team })}</p>
          <div>
            <p>{t('consent.asks', { app: details.app })}</p>
            <ScopeList scopes={details.scopes} identity />
          </div>
          <p className="hint">{t('consent.trust')}</p>
          {failed ? (
            <Alert tone="error" ref={problem}>
              {t('common.failed')}
            </Alert>
          ) : null}
          <div className="dialog-actions">
            <button
              type="button"
              className="button secondary"
              part="button"
              disabled={busy !== null}
              onClick={() => void answer(false)}
            >
              {busy === 'deny' ? <Spinner /> : null} {t('consent.deny')}
            </button>
            <button
              type="button"
              className="button"
              part="button"
              disabled={busy !== null}
              onClick={() => void answer(true)}
            >
              {busy === 'allow' ? <Spinner /> : null} {t('consent.allow')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/**
 * `/consent/:uid`: a third-party app asks to use the signed-in user's account (the OpenID Provider's
 * consent, docs/decisions/oidc-consent.md). Allow or deny, then back to the app through the provider.
 */
export default function ConsentPage({ go = (address: string) => location.assign(address) }) {
  return (
    <WithTextPart part="account" waiting={<ScreenLoading />} failed={<Failed />}>
      <div className="page stack">
        <ConsentScreen go={go} />
      </div>
    </WithTextPart>
  );
}
