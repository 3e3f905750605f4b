import { useRef, useState, type ComponentProps, type ReactNode, type RefObject } from 'react';
import { useSay, type Said } from '../../i18n/said';
import { Alert } from '../../ui/alert';
import { DialogForm as BaseDialogForm } from '../../ui/dialog';

/**
 * What went wrong in one of this screen's dialogs: at its field, or about the whole step; `calm` for what
 * is no fault (the user closed the browser's passkey prompt).
 */
export type DialogProblem<Field extends string> = { at: Field | 'form'; message: Said; calm?: boolean };

/** A dialog's problem, and showing one: its text at the field or above the buttons, with the focus. */
export function useDialogProblem<Field extends string>() {
  const [problem, setProblem] = useState<DialogProblem<Field> | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const say = useSay();

  function show(found: DialogProblem<Field>) {
    setProblem(found);
    // After the fieldset is enabled again (focus cannot go into a disabled field).
    requestAnimationFrame(() => (found.at === 'form' ? alert.current : input.current)?.focus());
  }

  const fieldError = (field: Field) => (problem?.at === field ? say(problem.message) : null);
  return { problem, setProblem, show, input, alert, fieldError };
}

/**
 * The form of one of this screen's dialogs: the dialog form every feature uses, with the problem about
 * the whole step under the fields, and `actions` always its own (a passkey step has no plain submit).
 */
export function DialogForm<Field extends string>({
  problem,
  alertRef,
  children,
  ...form
}: Omit<ComponentProps<typeof BaseDialogForm>, 'submitLabel'> & {
  problem: DialogProblem<Field> | null;
  alertRef: RefObject<HTMLDivElement | null>;
  actions: ReactNode;
}) {
  const say = useSay();
  return (
    <BaseDialogForm {...form}>
      {children}
      {problem?.at === 'form' ? (
        <Alert tone={problem.calm ? 'info' : 'error'} ref={alertRef}>
          {say(problem.message)}
        </Alert>
      ) : null}
    </BaseDialogForm>
  );
}
