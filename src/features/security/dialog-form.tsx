import { useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../ui/alert';
import { LoadingOverlay } from '../../ui/loading-overlay';

/**
 * What went wrong in one of this screen's dialogs: at its field, or about the whole step; `calm` for what
 * is no fault (the user closed the browser's passkey prompt).
 */
export type DialogProblem<Field extends string> = { at: Field | 'form'; message: string; calm?: boolean };

/** A dialog's problem, and showing one: its text at the field or above the buttons, with the focus. */
export function useDialogProblem<Field extends string>() {
  const [problem, setProblem] = useState<DialogProblem<Field> | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const alert = useRef<HTMLDivElement>(null);

  function show(found: DialogProblem<Field>) {
    setProblem(found);
    // After the fieldset is enabled again (focus cannot go into a disabled field).
    requestAnimationFrame(() => (found.at === 'form' ? alert.current : input.current)?.focus());
  }

  const fieldError = (field: Field) => (problem?.at === field ? problem.message : null);
  return { problem, setProblem, show, input, alert, fieldError };
}

/**
 * The form of one of this screen's dialogs: its fields, the problem about the whole step, Cancel and the
 * `actions` (Cancel first, as every dialog here), what comes `after`, and the overlay while it works.
 */
export function DialogForm<Field extends string>({
  busy,
  onSubmit,
  onClose,
  problem,
  alertRef,
  actions,
  after,
  children,
}: {
  busy: boolean;
  onSubmit(event: FormEvent): void;
  onClose(): void;
  problem: DialogProblem<Field> | null;
  alertRef: RefObject<HTMLDivElement | null>;
  actions: ReactNode;
  after?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <form className="stack" noValidate onSubmit={onSubmit}>
      <fieldset disabled={busy}>
        {children}
        {problem?.at === 'form' ? (
          <Alert tone={problem.calm ? 'info' : 'error'} ref={alertRef}>
            {problem.message}
          </Alert>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" part="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          {actions}
        </div>
        {after}
      </fieldset>
      {busy ? <LoadingOverlay label={t('common.saving')} /> : null}
    </form>
  );
}
