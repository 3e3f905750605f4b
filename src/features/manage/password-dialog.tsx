import { useRef, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { ApiError } from '../../api/client';
import { savePassword } from '../../api/endpoints';
import { WithTextPart } from '../../i18n/parts';
import { noticesStore } from '../../state/notices';
import { sessionStore } from '../../state/session';
import { Dialog } from '../../ui/dialog';
import { useElement } from '../../ui/element-context';
import { LoadingOverlay } from '../../ui/loading-overlay';
import { NewPasswordFields, passwordRefusal } from '../../ui/new-password-fields';
import { TextField } from '../../ui/text-field';
import { LIMITS } from '../../contract/limits';

/** The server's answer for a wrong current password (spec §5). */
const INVALID_PASSWORD = 'InvalidPassword';

interface Errors {
  old?: Said;
  new?: Said;
  confirm?: Said;
}

/**
 * Change or set the password (spec §2, §4, §5). Change (a password exists): old, new and confirm, all
 * required; new ≠ old; new = confirm. Set (none yet): new and confirm required — the spec checks the
 * match only when a password exists (the server still refuses a mismatch, and its message shows on both
 * fields). A wrong current password marks the old field; any other server message goes on new and
 * confirm. Closing is disabled while the request runs.
 */
export function PasswordDialog({
  open,
  hasPassword,
  onClose,
  onSaved,
}: {
  open: boolean;
  hasPassword: boolean;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const { language } = useElement();
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      title={hasPassword ? t('manage.password.changeTitle') : t('manage.password.setTitle')}
      closable={!busy}
      onClose={onClose}
    >
      <PasswordForm
        key={String(open)}
        hasPassword={hasPassword}
        t={t}
        language={language}
        busy={busy}
        setBusy={setBusy}
        onClose={onClose}
        onSaved={onSaved}
      />
    </Dialog>
  );
}

function PasswordForm({
  hasPassword,
  t,
  language,
  busy,
  setBusy,
  onClose,
  onSaved,
}: {
  hasPassword: boolean;
  t: TFunction;
  language: string;
  busy: boolean;
  setBusy(busy: boolean): void;
  onClose(): void;
  onSaved(): void;
}) {
  const say = useSay();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  // A changed password signs out the other sessions unless the user unticks it.
  const [signOutOthers, setSignOutOthers] = useState(true);
  const [errors, setErrors] = useState<Errors>({});
  const oldInput = useRef<HTMLInputElement>(null);
  const newInput = useRef<HTMLInputElement>(null);
  const confirmInput = useRef<HTMLInputElement>(null);

  function validate(): Errors {
    const found: Errors = {};
    if (hasPassword && !oldPassword) found.old = ['manage.password.oldRequired'];
    if (!newPassword) found.new = ['login.reset.newRequired'];
    else if (hasPassword && newPassword === oldPassword) found.new = ['manage.password.sameAsOld'];
    if (!confirm) found.confirm = ['login.reset.confirmRequired'];
    else if (hasPassword && newPassword && confirm !== newPassword)
      found.confirm = ['common.passwordMismatch'];
    return found;
  }

  const focusFirst = (found: Errors) => {
    const first = found.old ? oldInput : found.new ? newInput : found.confirm ? confirmInput : null;
    first?.current?.focus();
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length) {
      focusFirst(found);
      return;
    }
    setBusy(true);
    try {
      const body = {
        ...(hasPassword ? { oldPassword, signOutOthers } : {}),
        newPassword,
        confirmNewPassword: confirm,
      };
      await sessionStore.getState().authorized((ctx) => savePassword(ctx, body, hasPassword), language);
      setBusy(false);
      // A password that existed was changed; a first one was set.
      noticesStore
        .getState()
        .show(hasPassword ? ['manage.password.changeNotice'] : ['manage.password.setNotice'], 'Success');
      onSaved();
      onClose();
    } catch (error) {
      setBusy(false);
      const message = error instanceof ApiError && error.status === 400 ? error.message : null;
      const other: Said = message ? passwordRefusal(error) : ['common.failed'];
      const found: Errors =
        message === INVALID_PASSWORD
          ? { old: ['manage.password.wrongCurrent'] }
          : { new: other, confirm: other };
      setErrors(found);
      focusFirst(found);
    }
  }

  return (
    <form className="stack" noValidate onSubmit={submit}>
      {/* For password managers: which account this new password belongs to. */}
      <input
        type="text"
        name="username"
        autoComplete="username"
        value={sessionStore.getState().user?.email ?? ''}
        readOnly
        hidden
      />
      <fieldset disabled={busy}>
        {hasPassword ? (
          <TextField
            label={t('manage.password.old')}
            name="current-password"
            type="password"
            autoComplete="current-password"
            maxLength={LIMITS.newPassword}
            value={oldPassword}
            onChange={(event) => setOld(event.target.value)}
            error={say(errors.old)}
            inputRef={oldInput}
            autoFocus
          />
        ) : null}
        <NewPasswordFields
          password={newPassword}
          confirm={confirm}
          onPassword={setNew}
          onConfirm={setConfirm}
          errors={{ password: errors.new, confirm: errors.confirm }}
          passwordRef={newInput}
          confirmRef={confirmInput}
          autoFocus={!hasPassword}
        />
        {hasPassword ? (
          // Its words come with the account screens' texts; until they have loaded the box is not
          // shown, and the other sessions are signed out as before.
          <WithTextPart part="account" waiting={null} failed={null}>
            <label className="check">
              <input
                type="checkbox"
                name="signOutOthers"
                checked={signOutOthers}
                onChange={(event) => setSignOutOthers(event.target.checked)}
              />
              <span>{t('manage.password.signOutOthers')}</span>
            </label>
          </WithTextPart>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" part="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button" part="button" disabled={busy}>
            {hasPassword ? t('manage.password.change') : t('manage.password.set')}
          </button>
        </div>
      </fieldset>
      {busy ? <LoadingOverlay label={t('common.saving')} /> : null}
    </form>
  );
}
