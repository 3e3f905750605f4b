import type { FormEvent, ReactNode } from 'react';
import { LoadingOverlay } from './loading-overlay';

/**
 * A form whose fields and submit button are disabled while its request runs, under a loading overlay
 * with a status for screen readers (spec §2: "a loading overlay with a spinner while the form is
 * disabled"). Validation is the screen's own (`noValidate`), so messages are translated and consistent.
 */
export function BusyForm({
  busy,
  busyLabel,
  submitLabel,
  onSubmit,
  children,
}: {
  busy: boolean;
  busyLabel: string;
  submitLabel: string;
  onSubmit(event: FormEvent): void;
  children: ReactNode;
}) {
  return (
    <form className="stack" noValidate onSubmit={onSubmit}>
      <fieldset disabled={busy}>
        {children}
        <button className="button block" part="button" type="submit">
          {submitLabel}
        </button>
      </fieldset>
      {busy ? <LoadingOverlay label={busyLabel} /> : null}
    </form>
  );
}
