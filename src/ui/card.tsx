import type { ReactNode } from 'react';
import { BrandHeading } from './brand-heading';

/** The centred card of the sign-in screens: the brand's mark on top, `aria-busy` while a request runs. */
export function Card({ busy = false, children }: { busy?: boolean; children: ReactNode }) {
  return (
    <div className="frame">
      <div className="card stack" part="card" aria-busy={busy}>
        <BrandHeading />
        {children}
      </div>
    </div>
  );
}
