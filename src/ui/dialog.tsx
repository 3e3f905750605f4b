import {
  Fragment,
  useEffect,
  useEffectEvent,
  useId,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from './alert';
import { LoadingOverlay } from './loading-overlay';

/** Spec §9: dialogs animate 150 ms in and 75 ms out (no animation with reduced motion, see base.css). */
const CLOSE_MS = 75;

/** The element that really has focus, looking inside shadow roots. */
function deepActiveElement(): HTMLElement | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/** Our dialogs from opening until closed with the focus given back, and what waits for none to be. */
const openDialogs = new Set<HTMLDialogElement>();
let afterClosing: Array<() => void> = [];

function closed(dialog: HTMLDialogElement) {
  if (!openDialogs.delete(dialog) || openDialogs.size) return;
  const run = afterClosing;
  afterClosing = [];
  for (const then of run) then();
}

/**
 * Run `then` once no dialog of ours is open or closing (at once if none is): what follows a dialog —
 * the next dialog, a focus moved elsewhere, the content's removal — comes after it has given the focus
 * back, whatever the machine's timing, instead of after a delay that is usually long enough.
 */
export function afterDialogs(then: () => void): void {
  if (openDialogs.size === 0) then();
  else afterClosing.push(then);
}

/**
 * A modal dialog on the native `<dialog>`: the rest of the page is inert while it is open (focus stays
 * inside), Escape closes it unless `closable` is false (while a request runs), and focus goes back to
 * whatever opened it (or to `returnFocus()` if that is gone). At most 80vw wide. The content stays during the 75 ms exit animation. A question
 * before something that cannot be undone is an `alertdialog` described by its text (`describedBy`).
 */
export function Dialog({
  open,
  title,
  closable = true,
  describedBy,
  returnFocus,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  closable?: boolean;
  /** The id of the text that asks the question: makes it an alertdialog that reads it out on opening. */
  describedBy?: string;
  /** Where focus goes on closing when whatever opened the dialog is no longer on the page. */
  returnFocus?: () => HTMLElement | null | undefined;
  onClose(): void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  // Whether the content is mounted: from opening until the exit animation has played (not just while
  // `open`), so the 75 ms exit does not play on an empty dialog.
  const [shown, setShown] = useState(open);
  if (open && !shown) setShown(true);
  const focusBack = useEffectEvent(() => {
    (opener.current?.isConnected ? opener.current : returnFocus?.())?.focus();
  });

  // Removed while open or closing: nothing waits for it any more.
  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog) closed(dialog);
    };
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open) {
      // Opening again while the closing animation runs just cancels the close (its timer is cleared).
      dialog.classList.remove('closing');
      if (!dialog.open) {
        opener.current = deepActiveElement();
        dialog.showModal();
        openDialogs.add(dialog);
      }
      return;
    }
    if (!open && dialog.open) {
      dialog.classList.add('closing');
      const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
      const timer = setTimeout(
        () => {
          dialog.close();
          dialog.classList.remove('closing');
          setShown(false);
          focusBack();
          closed(dialog);
        },
        reduced ? 0 : CLOSE_MS,
      );
      return () => clearTimeout(timer);
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      part="dialog"
      role={describedBy ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(event) => {
        // Escape: never let the browser close it behind React's back; close through state when allowed.
        event.preventDefault();
        if (closable) onClose();
      }}
      onClose={() => {
        // The browser closed it while React still has it open: a second Escape without a user
        // activation in between sends a non-cancelable cancel (Chrome's close-watcher rule), or a script
        // called close(). Keep the two in step: open it again while closing is disabled, otherwise let
        // the state follow.
        const dialog = ref.current;
        if (!open || !dialog || dialog.open) return;
        if (closable) {
          setShown(false);
          onClose();
          closed(dialog);
        } else dialog.showModal();
      }}
    >
      <h2 className="dialog-title" id={titleId}>
        {title}
      </h2>
      {shown ? children : null}
    </dialog>
  );
}

/**
 * A dialog around a form: the form starts afresh each time the dialog opens, and the dialog cannot be
 * closed while the form's request runs (`busy`, which the form sets).
 */
export function FormDialog({
  open,
  title,
  returnFocus,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  returnFocus?: () => HTMLElement | null | undefined;
  onClose(): void;
  children(busy: boolean, setBusy: (busy: boolean) => void): ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} title={title} closable={!busy} onClose={onClose} returnFocus={returnFocus}>
      <Fragment key={String(open)}>{children(busy, setBusy)}</Fragment>
    </Dialog>
  );
}

/**
 * The form inside a dialog: its fields (`children`), the refusal (`error`, which takes the focus when it
 * shows), then Cancel first (as in every dialog) and the one submit button labelled `submitLabel` — or
 * `actions` in its place — then what comes `after`; all of it disabled under the overlay while the
 * request runs (`busy`), so nothing is sent twice.
 */
export function DialogForm({
  busy,
  onSubmit,
  onClose,
  submitLabel,
  actions,
  error,
  after,
  children,
}: {
  busy: boolean;
  onSubmit(event: FormEvent): void;
  onClose(): void;
  submitLabel?: string;
  actions?: ReactNode;
  error?: string | null;
  after?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) alert.current?.focus();
  }, [error]);
  return (
    <form className="stack" noValidate onSubmit={onSubmit}>
      <fieldset disabled={busy}>
        {children}
        {error ? (
          <Alert tone="error" ref={alert}>
            {error}
          </Alert>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" part="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          {actions ?? (
            <button type="submit" className="button" part="button">
              {submitLabel}
            </button>
          )}
        </div>
        {after}
      </fieldset>
      {busy ? <LoadingOverlay label={t('common.saving')} /> : null}
    </form>
  );
}
