import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../ui/alert';
import { FormDialog } from '../../ui/dialog';
import { LoadingOverlay } from '../../ui/loading-overlay';
import { TextField } from '../../ui/text-field';
import { charCount, LIMITS } from '../../api/limits';

/**
 * What went wrong with a name: at the field, or about the whole step (the passkey itself); `calm` for
 * what is no fault (the user closed the browser's prompt).
 */
export type NameProblem = { at: 'name' | 'form'; message: string; calm?: boolean };

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
  const [problem, setProblem] = useState<NameProblem | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const alert = useRef<HTMLDivElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || charCount(trimmed) > LIMITS.name) {
      setProblem({
        at: 'name',
        message: trimmed ? t('security.passkeys.errors.invalidName') : t('security.passkeys.nameRequired'),
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
    setProblem(found);
    // After the fieldset is enabled again (focus cannot go into a disabled field).
    requestAnimationFrame(() => (found.at === 'name' ? input.current : alert.current)?.focus());
  }

  return (
    <form className="stack" noValidate onSubmit={(event) => void submit(event)}>
      <fieldset disabled={busy}>
        <TextField
          label={t('security.passkeys.name')}
          hint={t('security.passkeys.nameHint')}
          name="passkeyName"
          autoComplete="off"
          limit={LIMITS.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={problem?.at === 'name' ? problem.message : null}
          inputRef={input}
          autoFocus
        />
        {problem?.at === 'form' ? (
          <Alert tone={problem.calm ? 'info' : 'error'} ref={alert}>
            {problem.message}
          </Alert>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" part="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button" part="button">
            {submitLabel}
          </button>
        </div>
      </fieldset>
      {busy ? <LoadingOverlay label={t('common.saving')} /> : null}
    </form>
  );
}
