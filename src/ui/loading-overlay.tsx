import { Spinner } from './spinner';

/** Covers the card while a request runs (the form below is disabled), with a status for screen readers. */
export function LoadingOverlay({ label }: { label: string }) {
  return (
    <div className="overlay" role="status">
      <Spinner />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
