import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { openSetupLink, setupGoneReason, type OpenedSetup, type SetupGone } from '../../api/setup-links';
import { Alert } from '../../ui/alert';
import { useElement } from '../../ui/element-context';
import { useRouter } from '../../ui/router';
import { Snackbar } from '../../ui/snackbar';
import { ScreenLoading } from '../../ui/spinner';
import { CallContext, type Caller } from '../../ui/use-call';
import { AdminPart } from './admin-kit';
import ConnectionsPage from './connections-page';
import DomainsPage from './domains-page';
import { dayText } from './format';
import '../../styles/screens-sheet';

/** A token this close to its end is replaced before a call rather than refused by it. */
const RENEW_BEFORE_MS = 60_000;

type Opening =
  | { status: 'opening' }
  | { status: 'open'; setup: OpenedSetup }
  | { status: 'gone'; reason: SetupGone }
  | { status: 'failed' };

/**
 * `/setup/:token`: the page a team's IT contact opens from the setup link an owner mailed them
 * (docs/decisions/setup-links.md). It opens the link — which binds it to this browser — and shows the
 * team's Domains and Single sign-on screens as they are, their calls made with the link's short-lived
 * token (CallContext) instead of a session; the link is opened again whenever the token runs out. A
 * link that no longer works says why, and whom to ask for a new one.
 */
export default function SetupPage() {
  return (
    <div className="page stack">
      <AdminPart>
        <Setup />
      </AdminPart>
      <Snackbar />
    </div>
  );
}

function Setup() {
  const { t } = useTranslation();
  const { issuer, language } = useElement();
  const { location } = useRouter();
  const token = decodeURIComponent(location.path.split('/')[2] ?? '');
  const [opening, setOpening] = useState<Opening>({ status: 'opening' });
  const [attempt, setAttempt] = useState(0);
  const held = useRef<{ token: string; until: number } | null>(null);
  const renewing = useRef<Promise<string> | null>(null);

  /** Open the link: a new token for the calls (one request at a time however many calls wait). */
  const open = useCallback(() => {
    renewing.current ??= openSetupLink({ issuer, language }, token)
      .then((setup) => {
        held.current = { token: setup.accessToken, until: Date.now() + setup.expiresIn * 1000 };
        return setup.accessToken;
      })
      .catch((error: unknown) => {
        const reason = setupGoneReason(error);
        // The link stopped working (revoked, expired) while the screens were open: the page says so.
        if (reason) setOpening({ status: 'gone', reason });
        throw error;
      })
      .finally(() => (renewing.current = null));
    return renewing.current;
  }, [issuer, language, token]);

  useEffect(() => {
    held.current = null;
    let live = true;
    openSetupLink({ issuer, language }, token).then(
      (setup) => {
        if (!live) return;
        held.current = { token: setup.accessToken, until: Date.now() + setup.expiresIn * 1000 };
        setOpening({ status: 'open', setup });
      },
      (error: unknown) => {
        if (!live) return;
        const reason = setupGoneReason(error);
        setOpening(reason ? { status: 'gone', reason } : { status: 'failed' });
      },
    );
    return () => {
      live = false;
    };
    // The language is the calls' only; a new one need not open the link again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [issuer, token, attempt]);

  // The screens' calls, with the link's token: renewed ahead of its end, and once more after a 401.
  const caller: Caller = useCallback(
    async (call, callLanguage) => {
      const current = held.current;
      const first = current && current.until - Date.now() > RENEW_BEFORE_MS ? current.token : await open();
      try {
        return await call({ issuer, accessToken: first, language: callLanguage });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 401) throw error;
        return call({ issuer, accessToken: await open(), language: callLanguage });
      }
    },
    [issuer, open],
  );

  if (opening.status === 'opening') return <ScreenLoading />;
  if (opening.status === 'gone')
    return (
      <Problem title={t('setupLinks.page.goneTitle')} alert={t(`setupLinks.page.gone.${opening.reason}`)}>
        <p>{t('setupLinks.page.askOwner')}</p>
      </Problem>
    );
  if (opening.status === 'failed')
    return (
      <Problem title={t('setupLinks.page.title')} alert={t('setupLinks.page.failed')}>
        <div>
          <button
            type="button"
            className="button secondary small"
            part="button"
            onClick={() => {
              setOpening({ status: 'opening' });
              setAttempt((n) => n + 1);
            }}
          >
            {t('common.retry')}
          </button>
        </div>
      </Problem>
    );

  const { setup } = opening;
  return (
    <>
      <section className="panel stack" part="card" aria-labelledby="setup-title">
        <h1 className="panel-title" id="setup-title">
          {t('setupLinks.page.heading', { team: setup.team.displayName })}
        </h1>
        <p>{t('setupLinks.page.intro', { team: setup.team.displayName, email: setup.email })}</p>
        <p className="hint">{t('setupLinks.page.until', { date: dayText(setup.linkExpiresAt, language) })}</p>
      </section>
      <CallContext.Provider value={caller}>
        <DomainsPage />
        <ConnectionsPage />
      </CallContext.Provider>
    </>
  );
}

/** Why the page shows no screens: its heading, what went wrong, and what to do. */
function Problem({ title, alert, children }: { title: string; alert: string; children: ReactNode }) {
  return (
    <section className="panel stack" part="card" aria-labelledby="setup-problem-title">
      <h1 className="panel-title" id="setup-problem-title">
        {title}
      </h1>
      <Alert tone="error">
        <p>{alert}</p>
      </Alert>
      {children}
    </section>
  );
}
