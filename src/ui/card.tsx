import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandHeading } from './brand-heading';
import { Spinner } from './spinner';

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

/** A card that is still waiting for what its screen shows (a status for screen readers). */
export function LoadingCard() {
  const { t } = useTranslation();
  return (
    <Card>
      <div className="loading" role="status">
        <Spinner />
        <span>{t('common.loading')}</span>
      </div>
    </Card>
  );
}
