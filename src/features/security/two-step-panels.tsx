import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import {
  confirmTotp,
  getTwoStep,
  removeTotp,
  renewRecoveryCodes,
  startTotp,
  type TotpKey as Key,
  type TwoStepStatus,
} from '../../api/two-step';
import { noticesStore } from '../../state/notices';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { BusyForm } from '../../ui/busy-form';
import { RecoveryCodes } from '../../ui/recovery-codes';
import { Spinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { TotpKey } from '../../ui/totp-key';
import { useLoaded } from './common';
import { Failed } from '../../ui/failed';
import { refusalOf } from '../../api/refusal';
import { useCall } from '../../ui/use-call';
import { ReauthDialog } from './reauth-dialog';

/** At or under this many unused recovery codes, the screen warns to make new ones. */
export const FEW_CODES = 3;

/** Setting up the authenticator app: the new key and the code typed from it. */
function SetUp({ secret, done, cancel }: { secret: Key; done(codes: string[]): void; cancel(): void }) {
  const { t } = useTranslation();
  const call = useCall();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // The Set up button that was focused is gone: on to what is asked next (its label and hint say what).
  useEffect(() => input.current?.focus(), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const typed = code.replace(/\s/g, '');
    if (!typed) {
      setError(t('security.totp.codeRequired'));
      input.current?.focus();
      return;
    }
    setError(null);
    setFailed(false);
    setBusy(true);
    try {
      const { recoveryCodes } = await call((ctx) => confirmTotp(ctx, typed));
      done(recoveryCodes);
      return;
    } catch (problem) {
      const { code: refusal } = refusalOf(problem);
      if (refusal === 'invalidCode') {
        setError(t('security.totp.invalidCode'));
        requestAnimationFrame(() => input.current?.focus());
      } else setFailed(true);
    }
    setBusy(false);
  }

  return (
    <div className="stack">
      <TotpKey uri={secret.uri} secret={secret.secret} />
      {failed ? <Failed /> : null}
      <BusyForm
        busy={busy}
        busyLabel={t('common.saving')}
        submitLabel={t('security.totp.confirm')}
        onSubmit={(event) => void submit(event)}
      >
        <TextField
          label={t('security.totp.code')}
          hint={t('security.totp.codeHint')}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={10}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={error}
          inputRef={input}
        />
      </BusyForm>
      <button type="button" className="button secondary" part="button" disabled={busy} onClick={cancel}>
        {t('common.cancel')}
      </button>
    </div>
  );
}

/**
 * Two-step sign-in: the authenticator app (set up, or turned off after proving presence again unless
 * the team requires it) and, while it is on, the recovery codes (how many are left, new ones). Codes
 * are shown once, right after they are made.
 */
export function TwoStepPanels({ passkeysRound }: { passkeysRound: number }) {
  const { t } = useTranslation();
  const call = useCall();
  const email = useStore(sessionStore, (state) => state.user?.email ?? '');
  const load = useCallback(() => call(getTwoStep), [call]);
  const [status, reload, setStatus] = useLoaded<TwoStepStatus>(load);
  const [secret, setSecret] = useState<Key | null>(null);
  const [starting, setStarting] = useState(false);
  const [startFailed, setStartFailed] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [asking, setAsking] = useState<'off' | 'renew' | null>(null);
  const [open, setOpen] = useState(false);
  const appTitle = useId();
  const codesTitle = useId();
  const appHeading = useRef<HTMLHeadingElement>(null);
  const codesSection = useRef<HTMLElement>(null);
  const setUpButton = useRef<HTMLButtonElement>(null);

  // The passkey count (which offers a passkey to prove presence) follows the passkeys panel.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else reload();
  }, [passkeysRound, reload]);

  async function start() {
    setStarting(true);
    setStartFailed(false);
    try {
      setSecret(await call(startTotp));
    } catch (error) {
      if (refusalOf(error).code === 'alreadyOn') reload();
      else setStartFailed(true);
    }
    setStarting(false);
  }

  function confirmed(recoveryCodes: string[]) {
    setSecret(null);
    setCodes(recoveryCodes);
    noticesStore.getState().show(t('security.totp.turnedOn'), 'Success');
    reload();
  }

  function cancelSetUp() {
    setSecret(null);
    requestAnimationFrame(() => setUpButton.current?.focus());
  }

  function finished() {
    setCodes(null);
    reload();
    requestAnimationFrame(() => appHeading.current?.focus());
  }

  const ask = (what: 'off' | 'renew') => {
    setAsking(what);
    setOpen(true);
  };

  async function act(proof: Parameters<typeof removeTotp>[1]) {
    if (asking === 'off') {
      setStatus(await call((ctx) => removeTotp(ctx, proof)));
      noticesStore.getState().show(t('security.totp.turnedOff'), 'Success');
    } else {
      const { recoveryCodes } = await call((ctx) => renewRecoveryCodes(ctx, proof));
      setCodes(recoveryCodes);
      reload();
    }
  }

  const loaded = status !== null && status !== 'failed' ? status : null;
  const left = loaded?.recoveryCodesLeft ?? 0;

  return (
    <>
      <section className="panel" part="card" aria-labelledby={appTitle}>
        <h2 className="panel-title" id={appTitle} ref={appHeading} tabIndex={-1}>
          {t('security.totp.title')}
        </h2>
        <p className="hint">{t('security.totp.intro')}</p>
        {status === null ? (
          <div className="loading" role="status">
            <Spinner />
            <span>{t('common.loading')}</span>
          </div>
        ) : status === 'failed' ? (
          <Failed retry={reload} />
        ) : status.totp ? (
          <>
            <p data-two-step="on">
              <strong>{t('security.totp.on')}</strong>
            </p>
            {status.required ? (
              <p className="hint">{t('security.totp.required')}</p>
            ) : (
              <button type="button" className="button secondary" part="button" onClick={() => ask('off')}>
                {t('security.totp.turnOff')}
              </button>
            )}
          </>
        ) : secret ? (
          <SetUp secret={secret} done={confirmed} cancel={cancelSetUp} />
        ) : (
          <>
            <p data-two-step="off">
              <strong>{t('security.totp.off')}</strong>
            </p>
            {status.required ? <Alert tone="info">{t('security.totp.requiredOff')}</Alert> : null}
            {startFailed ? <Failed /> : null}
            <button
              type="button"
              className="button"
              part="button"
              ref={setUpButton}
              disabled={starting}
              onClick={() => void start()}
            >
              {t('security.totp.setUp')}
            </button>
          </>
        )}
      </section>
      {codes ? (
        <section className="panel" part="card" aria-label={t('recoveryCodes.title')} ref={codesSection}>
          <RecoveryCodes codes={codes} account={email} />
          <button type="button" className="button" part="button" onClick={finished}>
            {t('security.totp.done')}
          </button>
        </section>
      ) : loaded?.totp ? (
        <section className="panel" part="card" aria-labelledby={codesTitle}>
          <h2 className="panel-title" id={codesTitle}>
            {t('security.recovery.title')}
          </h2>
          <p className="hint">{t('security.recovery.intro')}</p>
          <p>
            <strong>{t('security.recovery.left', { count: left })}</strong>
          </p>
          {left <= FEW_CODES ? <Alert tone="error">{t('security.recovery.few')}</Alert> : null}
          <p className="hint">{t('security.recovery.renewNote')}</p>
          <button type="button" className="button secondary" part="button" onClick={() => ask('renew')}>
            {t('security.recovery.renew')}
          </button>
        </section>
      ) : null}
      <ReauthDialog
        open={open}
        title={asking === 'off' ? t('security.reauth.offTitle') : t('security.reauth.renewTitle')}
        note={asking === 'renew' ? t('security.recovery.renewNote') : undefined}
        submitLabel={asking === 'off' ? t('security.totp.turnOff') : t('security.recovery.renew')}
        password={loaded?.password ?? true}
        passkeys={(loaded?.passkeys ?? 0) > 0 && browserSupportsWebAuthn()}
        act={act}
        onClose={() => setOpen(false)}
        returnFocus={() =>
          codesSection.current?.querySelector<HTMLElement>('h2[tabindex]') ?? appHeading.current
        }
      />
    </>
  );
}
