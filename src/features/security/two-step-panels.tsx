import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { useStore } from 'zustand';
import {
  confirmReplacement,
  confirmTotp,
  getTwoStep,
  removeTotp,
  renewRecoveryCodes,
  startReplacement,
  startTotp,
  type TotpKey as Key,
  type TotpReplacement,
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

/**
 * Setting up the authenticator app (first, or on a new device): the new key and the code typed from
 * it. `confirm` sends the code; a refusal of the code shows at the field, `gone` above the form.
 */
function SetUp({
  secret,
  confirm,
  submitLabel,
  cancel,
}: {
  secret: Key;
  confirm(code: string): Promise<void>;
  submitLabel: string;
  cancel(): void;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const [code, setCode] = useState('');
  const [error, setError] = useState<Said | null>(null);
  const [failed, setFailed] = useState<'failed' | 'gone' | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // The Set up button that was focused is gone: on to what is asked next (its label and hint say what).
  useEffect(() => input.current?.focus(), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const typed = code.replace(/\s/g, '');
    if (!typed) {
      setError(['security.totp.codeRequired']);
      input.current?.focus();
      return;
    }
    setError(null);
    setFailed(null);
    setBusy(true);
    try {
      await confirm(typed);
      return;
    } catch (problem) {
      const { code: refusal } = refusalOf(problem);
      if (refusal === 'invalidCode') {
        setError(['security.totp.invalidCode']);
        requestAnimationFrame(() => input.current?.focus());
      } else setFailed(refusal === 'replacementGone' ? 'gone' : 'failed');
    }
    setBusy(false);
  }

  return (
    <div className="stack">
      <TotpKey uri={secret.uri} secret={secret.secret} />
      {failed === 'gone' ? <Alert tone="error">{t('security.totp.moveGone')}</Alert> : null}
      {failed === 'failed' ? <Failed /> : null}
      <BusyForm
        busy={busy}
        busyLabel={t('common.saving')}
        submitLabel={submitLabel}
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
          error={say(error)}
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
  const team = useStore(sessionStore, (state) => state.team?.displayName ?? state.user?.team ?? '');
  const load = useCallback(() => call(getTwoStep), [call]);
  const [status, reload, setStatus] = useLoaded<TwoStepStatus>(load);
  const [secret, setSecret] = useState<Key | null>(null);
  const [starting, setStarting] = useState(false);
  const [startFailed, setStartFailed] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [asking, setAsking] = useState<'off' | 'renew' | 'move' | null>(null);
  // The key for a new device, while its first code is awaited (the one in force still works).
  const [moving, setMoving] = useState<TotpReplacement | null>(null);
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
    noticesStore.getState().show(['security.totp.turnedOn'], 'Success');
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

  const ask = (what: 'off' | 'renew' | 'move') => {
    setAsking(what);
    setOpen(true);
  };

  async function confirmSetUp(code: string) {
    confirmed((await call((ctx) => confirmTotp(ctx, code))).recoveryCodes);
  }

  async function confirmMove(code: string) {
    if (!moving) return;
    const replacement = moving.replacement;
    setStatus(await call((ctx) => confirmReplacement(ctx, { replacement, code })));
    setMoving(null);
    noticesStore.getState().show(['security.totp.moved'], 'Success');
    requestAnimationFrame(() => appHeading.current?.focus());
  }

  function cancelMove() {
    setMoving(null);
    requestAnimationFrame(() => appHeading.current?.focus());
  }

  async function act(proof: Parameters<typeof removeTotp>[1]) {
    if (asking === 'move') {
      setMoving(await call((ctx) => startReplacement(ctx, proof)));
    } else if (asking === 'off') {
      setStatus(await call((ctx) => removeTotp(ctx, proof)));
      noticesStore.getState().show(['security.totp.turnedOff'], 'Success');
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
        ) : status.totp && moving ? (
          <SetUp
            secret={moving}
            confirm={confirmMove}
            submitLabel={t('security.totp.moveConfirm')}
            cancel={cancelMove}
          />
        ) : status.totp ? (
          <>
            <p data-two-step="on">
              <strong>{t('security.totp.on')}</strong>
            </p>
            {status.required ? <p className="hint">{t('security.totp.required')}</p> : null}
            <p className="hint">{t('security.totp.moveHint')}</p>
            <div className="dialog-actions">
              <button type="button" className="button secondary" part="button" onClick={() => ask('move')}>
                {t('security.totp.move')}
              </button>
              {status.required ? null : (
                <button type="button" className="button secondary" part="button" onClick={() => ask('off')}>
                  {t('security.totp.turnOff')}
                </button>
              )}
            </div>
          </>
        ) : secret ? (
          <SetUp
            secret={secret}
            confirm={confirmSetUp}
            submitLabel={t('security.totp.confirm')}
            cancel={cancelSetUp}
          />
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
          <RecoveryCodes codes={codes} account={email} team={team} />
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
        title={
          asking === 'move'
            ? t('security.totp.move')
            : asking === 'off'
              ? t('security.reauth.offTitle')
              : t('security.reauth.renewTitle')
        }
        note={asking === 'renew' ? t('security.recovery.renewNote') : undefined}
        submitLabel={
          asking === 'move'
            ? t('login.continue')
            : asking === 'off'
              ? t('security.totp.turnOff')
              : t('security.recovery.renew')
        }
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
