import type { ReactNode } from 'react';

/** A message announced to screen readers when it appears: `alert` for errors, `status` otherwise. */
export function Alert({ tone, children }: { tone: 'error' | 'info' | 'success'; children: ReactNode }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
