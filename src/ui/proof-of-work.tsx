import { Suspense } from 'react';
import { lazyScreen } from './lazy-screen';
import type { ProofOfWorkProps } from './proof/proof';

export type { ProofOfWorkProps };

const Lazy = lazyScreen<ProofOfWorkProps>(() => import('./proof/proof'));

/**
 * The proof-of-work check (proof/proof.tsx), loaded when a screen first asks for it: a page whose
 * visitor is never challenged loads none of it. `preload` asks for it ahead (while someone types).
 */
export function ProofOfWork(props: ProofOfWorkProps) {
  return (
    <Suspense fallback={null}>
      <Lazy {...props} />
    </Suspense>
  );
}
ProofOfWork.preload = Lazy.preload;
