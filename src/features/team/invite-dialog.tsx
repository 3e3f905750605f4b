import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { LIMITS } from '../../contract/limits';
import { invite, type Invitation, type TeamPermission } from '../../api/team';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { Dialog, DialogForm } from '../../ui/dialog';
import { useElement } from '../../ui/element-context';
import { TextField } from '../../ui/text-field';
import { refusalOf } from './format';

const PERMISSIONS: TeamPermission[] = ['OWNER', 'ADMIN', 'EDITOR', 'APPROVER', 'SPOKE'];
/** The server's codes for a refused address; anything else is said above the form. */
const EMAIL_CODES = ['invalidEmail', 'alreadyMember', 'alreadyInvited', 'seatLimit'];
const PERMISSION_CODES = ['notOwner', 'invalidPermission'];

/**
 * Invite someone: their e-mail address and the permissions they get. Only an owner may grant OWNER (the
 * server decides; the box is off for the others). Each refusal is shown at the field it concerns.
 */
export function InviteDialog({
  open,
  owner,
  onClose,
  onInvited,
}: {
  open: boolean;
  owner: boolean;
  onClose(): void;
  onInvited(invitation: Invitation): void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('team.inviteDialog.title')} onClose={onClose}>
      <InviteForm key={String(open)} owner={owner} onClose={onClose} onInvited={onInvited} />
    </Dialog>
  );
}

function InviteForm({
  owner,
  onClose,
  onInvited,
}: {
  owner: boolean;
  onClose(): void;
  onInvited(invitation: Invitation): void;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const { language } = useElement();
  const [email, setEmail] = useState('');
  const [granted, setGranted] = useState<TeamPermission[]>(['EDITOR']);
  const [errors, setErrors] = useState<{ email?: Said; permissions?: Said; form?: Said }>({});
  const [busy, setBusy] = useState(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const permissionsRef = useRef<HTMLFieldSetElement>(null);
  const permissionsError = useId();

  const focusFirst = (next: typeof errors) => {
    if (next.email) emailInput.current?.focus();
    else if (next.permissions)
      permissionsRef.current?.querySelector<HTMLInputElement>('input:not(:disabled)')?.focus();
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    const problems: typeof errors = {};
    if (!address) problems.email = ['team.inviteDialog.required'];
    else if (!/^[^\s@]+@[^\s@]+$/.test(address)) problems.email = ['team.inviteDialog.errors.invalidEmail'];
    if (granted.length === 0) problems.permissions = ['team.inviteDialog.errors.invalidPermission'];
    setErrors(problems);
    if (problems.email || problems.permissions) {
      focusFirst(problems);
      return;
    }
    setBusy(true);
    try {
      const invitation = await sessionStore
        .getState()
        .authorized((ctx) => invite(ctx, { email: address, permissions: granted }), language);
      onInvited(invitation);
    } catch (error) {
      setBusy(false);
      const { code } = refusalOf(error);
      const next: typeof errors = {};
      if (code && EMAIL_CODES.includes(code)) next.email = [`team.inviteDialog.errors.${code}`];
      else if (code && PERMISSION_CODES.includes(code))
        next.permissions = [`team.inviteDialog.errors.${code}`];
      else next.form = ['common.failed'];
      setErrors(next);
      focusFirst(next);
    }
  }

  return (
    <DialogForm busy={busy} onSubmit={submit} onClose={onClose} submitLabel={t('team.inviteDialog.submit')}>
      {errors.form ? <Alert tone="error">{say(errors.form)}</Alert> : null}
      <TextField
        label={t('team.inviteDialog.email')}
        name="email"
        type="email"
        autoComplete="off"
        maxLength={LIMITS.email}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={say(errors.email)}
        inputRef={emailInput}
        autoFocus
      />
      <fieldset
        className="checks"
        ref={permissionsRef}
        aria-describedby={errors.permissions ? permissionsError : undefined}
      >
        <legend>{t('team.inviteDialog.permissions')}</legend>
        {PERMISSIONS.map((permission) => (
          <label key={permission} className="check">
            <input
              type="checkbox"
              name="permissions"
              value={permission}
              checked={granted.includes(permission)}
              disabled={permission === 'OWNER' && !owner}
              aria-invalid={errors.permissions ? true : undefined}
              onChange={(event) =>
                setGranted(
                  event.target.checked
                    ? [...granted, permission]
                    : granted.filter((name) => name !== permission),
                )
              }
            />
            <span>{t(`manage.permissions.${permission}`)}</span>
          </label>
        ))}
        {errors.permissions ? (
          <p className="field-error" id={permissionsError}>
            {say(errors.permissions)}
          </p>
        ) : null}
      </fieldset>
    </DialogForm>
  );
}
