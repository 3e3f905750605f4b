import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { WithTextPart, type TextPart } from '../../i18n/parts';
import { Alert } from '../../ui/alert';
import { Card, LoadingCard } from '../../ui/card';

/**
 * A screen of the sign-in's own chunk shown once its texts' part is in: a loading card meanwhile, a
 * failure card if the part cannot load.
 */
export function WithTexts({ part, children }: { part: TextPart; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <WithTextPart
      part={part}
      waiting={<LoadingCard />}
      failed={
        <Card>
          <Alert tone="error">{t('common.failed')}</Alert>
        </Card>
      }
    >
      {children}
    </WithTextPart>
  );
}
