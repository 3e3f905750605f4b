import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { answerEmailLink, checkEmailLink } from '../../api/account';
import { WithTextPart } from '../../i18n/parts';
import { Alert } from '../../ui/alert';
import { useElement } from '../../ui/element-context';
import { useSearchParam } from '../../ui/router';
import { ScreenLoading, Spinner } from '../../ui/spinner';
import { Failed } from '../../ui/failed';
import { refusalOf } from '../../api/refusal';
import '../../styles/screens-sheet';

export interface EmailLink {
  change: string;
  token: string;
  action: 'confirm' | 'undo';
}

/** The mails' links: `?change=…&token=…` (to the new address) or `?change=…&undo=…` (to the old one). */
export function useEmailLink(): EmailLink | null {
  const change = useSearchParam('change');
  const token = useSearchParam('token');
  const undo = useSearchParam('undo');
  if (change && token) return { change, token, action: 'confirm' };
  if (change && undo) return { change, token: undo, action: 'undo' };
  return null;
}

/** A link from one of the mails: confirm the new address, or undo the change from the old one. */
export function LinkAnswer({
  change,
  token,
  action,
}: {
  change: string;
  token: string;
  action: 'confirm' | 'undo';
}) {
  const { t } = useTranslation();
  const { issuer, language } = useElement();
  const [state, setState] = useState<'checking' | 'idle' | 'busy' | { done: string } | { refused: string }>(
    'checking',
  );
  const titleId = useId();
  const result = useRef<HTMLDivElement>(null);

  // A used, superseded or expired link says so as it opens, not after a click that cannot succeed. If
  // the check itself fails, the button is offered all the same: answering has the final word.
  useEffect(() => {
    let live = true;
    checkEmailLink({ issuer, language }, { change, token, action }).then(
      () => live && setState('idle'),
      (error: unknown) => {
        if (!live) return;
        const { status, code } = refusalOf(error);
        setState(status === 410 || code === 'gone' ? { refused: 'gone' } : 'idle');
      },
    );
    return () => {
      live = false;
    };
  }, [issuer, language, change, token, action]);

  useEffect(() => {
    if (typeof state === 'object') result.current?.focus();
  }, [state]);

  async function answer() {
    setState('busy');
    try {
      const email = await answerEmailLink({ issuer, language }, action, { change, token });
      setState({ done: email });
    } catch (error) {
      const { status, code } = refusalOf(error);
      setState({ refused: status === 409 ? 'taken' : code === 'gone' || status === 410 ? 'gone' : 'failed' });
    }
  }

  return (
    <section className="panel" part="card" aria-labelledby={titleId}>
      <h2 className="panel-title" id={titleId}>
        {action === 'confirm' ? t('account.link.confirmTitle') : t('account.link.undoTitle')}
      </h2>
      {state === 'checking' ? (
        <div className="loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      ) : typeof state === 'object' ? (
        <div ref={result} tabIndex={-1}>
          {'done' in state ? (
            <Alert tone="success">
              {action === 'confirm'
                ? t('account.link.confirmed', { email: state.done })
                : t('account.link.undone', { email: state.done })}
            </Alert>
          ) : (
            <Alert tone="error">
              {state.refused === 'gone'
                ? t('account.link.gone')
                : state.refused === 'taken'
                  ? t('account.errors.emailTaken')
                  : t('common.failed')}
            </Alert>
          )}
        </div>
      ) : (
        <>
          <p>{action === 'confirm' ? t('account.link.confirmText') : t('account.link.undoText')}</p>
          <button
            type="button"
            className="button"
            part="button"
            disabled={state === 'busy'}
            onClick={() => void answer()}
          >
            {state === 'busy' ? (
              <>
                <Spinner /> {t('common.saving')}
              </>
            ) : action === 'confirm' ? (
              t('account.link.confirmAction')
            ) : (
              t('account.link.undoAction')
            )}
          </button>
        </>
      )}
    </section>
  );
}

/**
 * A mail's link opened without the manage area: answering it needs no session (the link is the proof),
 * and the undo link must work for someone whose address was changed away from them — they can no longer
 * sign in with it.
 */
export default function EmailLinkPage() {
  const link = useEmailLink();
  const { t } = useTranslation();
  return (
    <WithTextPart part="account" waiting={<ScreenLoading />} failed={<Failed />}>
      <div className="page stack">
        {link ? <LinkAnswer {...link} /> : <Alert tone="error">{t('common.failed')}</Alert>}
      </div>
    </WithTextPart>
  );
}
