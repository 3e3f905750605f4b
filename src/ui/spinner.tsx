/** A decorative spinner; the surrounding status text carries the meaning for screen readers. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
