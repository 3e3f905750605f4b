import type { ReactNode, Ref } from 'react';

/**
 * A message announced to screen readers when it appears: `alert` for errors, `status` otherwise. With
 * `ref` it can take focus (a failure that names no field is where focus goes after it).
 */
export function Alert({
  tone,
  children,
  ref,
}: {
  tone: 'error' | 'info' | 'success';
  children: ReactNode;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div
      className={`alert alert-${tone}`}
      role={tone === 'error' ? 'alert' : 'status'}
      ref={ref}
      tabIndex={ref ? -1 : undefined}
    >
      {children}
    </div>
  );
}
