import { useId, useState } from 'react';
import { useSay, type Said } from '../i18n/said';
import { Dialog, DialogForm } from './dialog';

/**
 * The question before something that cannot be undone: an alertdialog read out by its text, Cancel first
 * (focus lands there, so Enter at once changes nothing), the refusal shown inside it.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  action,
  onConfirm,
  onClose,
  returnFocus,
  describeError,
}: {
  open: boolean;
  title: string;
  text: string;
  action: string;
  /** Where focus goes when what opened the dialog is gone (the member or group was removed). */
  returnFocus?: () => HTMLElement | null;
  /** Resolves when done (the dialog closes); a rejection is shown in the dialog. */
  onConfirm(): Promise<void>;
  onClose(): void;
  /** What to say of a refusal; without it, a general failure. */
  describeError?: (problem: unknown) => Said;
}) {
  const say = useSay();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Said | null>(null);
  // The next question starts without the last one's refusal.
  const close = () => {
    setError(null);
    onClose();
  };

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (problem) {
      setError(describeError ? describeError(problem) : ['common.failed']);
    } finally {
      setBusy(false);
    }
  }

  return (
    <QuestionDialog
      open={open}
      title={title}
      text={text}
      action={action}
      busy={busy}
      error={say(error)}
      returnFocus={returnFocus}
      onConfirm={() => void confirm()}
      onClose={close}
    />
  );
}

/**
 * The question itself, for a screen that runs the action and shows its outcome on its own (`busy`
 * while it runs, then closing it): the alertdialog read out by `text`, Cancel first (focus lands there,
 * so Enter at once changes nothing) and the danger `action`.
 */
export function QuestionDialog({
  open,
  title,
  text,
  action,
  busy,
  error,
  returnFocus,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  text: string;
  action: string;
  busy: boolean;
  error?: string | null;
  returnFocus?: () => HTMLElement | null | undefined;
  onConfirm(): void;
  onClose(): void;
}) {
  const textId = useId();
  return (
    <Dialog
      open={open}
      title={title}
      closable={!busy}
      describedBy={textId}
      returnFocus={returnFocus}
      onClose={onClose}
    >
      <DialogForm
        busy={busy}
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
        onClose={onClose}
        error={error}
        actions={
          <button type="submit" className="button danger" part="button">
            {action}
          </button>
        }
      >
        <p id={textId}>{text}</p>
      </DialogForm>
    </Dialog>
  );
}
