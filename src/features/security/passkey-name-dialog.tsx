import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../ui/dialog';
import { TextField } from '../../ui/text-field';
import { charCount, LIMITS } from '../../contract/limits';
import { DialogForm, useDialogProblem, type DialogProblem } from './dialog-form';

/** What went wrong with a name: at the field, or about the whole step (the passkey itself). */
export type NameProblem = DialogProblem<'name'>;

/**
 * A passkey's name, asked before adding one and when renaming: `save` does the work (for a new passkey,
 * the browser's prompt too) and resolves to null when done (the dialog closes) or to the problem to
 * show, at the field or above the buttons.
 */
export function PasskeyNameDialog({
  open,
  title,
  submitLabel,
  initial,
  save,
  onClose,
  returnFocus,
}: {
  open: boolean;
  title: string;
  submitLabel: string;
  initial: string;
  save(name: string): Promise<NameProblem | null>;
  onClose(): void;
  returnFocus?: () => HTMLElement | null;
}) {
  return (
    <FormDialog open={open} title={title} onClose={onClose} returnFocus={returnFocus}>
      {(busy, setBusy) => (
        <NameForm
          initial={initial}
          submitLabel={submitLabel}
          save={save}
          onClose={onClose}
          busy={busy}
          setBusy={setBusy}
        />
      )}
    </FormDialog>
  );
}

function NameForm({
  initial,
  submitLabel,
  save,
  onClose,
  busy,
  setBusy,
}: {
  initial: string;
  submitLabel: string;
  save(name: string): Promise<NameProblem | null>;
  onClose(): void;
  busy: boolean;
  setBusy(busy: boolean): void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const { problem, setProblem, show, input, alert, fieldError } = useDialogProblem<'name'>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || charCount(trimmed) > LIMITS.name) {
      setProblem({
        at: 'name',
        message: trimmed ? ['security.passkeys.errors.invalidName'] : ['security.passkeys.nameRequired'],
      });
      input.current?.focus();
      return;
    }
    setProblem(null);
    setBusy(true);
    let found: NameProblem | null;
    try {
      found = await save(trimmed);
    } finally {
      setBusy(false);
    }
    if (!found) return onClose();
    show(found);
  }

  return (
    <DialogForm
      busy={busy}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
      problem={problem}
      alertRef={alert}
      actions={
        <button type="submit" className="button" part="button">
          {submitLabel}
        </button>
      }
    >
      <TextField
        label={t('security.passkeys.name')}
        hint={t('security.passkeys.nameHint')}
        name="passkeyName"
        autoComplete="off"
        limit={LIMITS.name}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={fieldError('name')}
        inputRef={input}
        autoFocus
      />
    </DialogForm>
  );
}
