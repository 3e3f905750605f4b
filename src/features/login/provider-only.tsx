import { useTranslation } from 'react-i18next';
import type { TeamPublic } from '../../api/endpoints';
import { Alert } from '../../ui/alert';
import { Card } from '../../ui/card';
import { Link, useSearchParam } from '../../ui/router';
import { withReturnUrl } from './routes';

/** Whether a team signs in only with its provider(s): it has no password to forget or reset. */
export function providerOnly(details: TeamPublic): boolean {
  return !details.localOptions;
}

/**
 * The forgot- and reset-password screens of a team without password sign-in: there is no password to
 * recover, so they say how the team signs in and lead back to its sign-in screen.
 */
export function ProviderOnlyNotice({
  team,
  details,
  title,
}: {
  team: string;
  details: TeamPublic;
  title: string;
}) {
  const { t } = useTranslation();
  const returnUrl = useSearchParam('ReturnUrl');
  return (
    <Card>
      <h1 className="title">{title}</h1>
      <Alert tone="info">{t('login.providerOnly', { team: details.displayName ?? team })}</Alert>
      <Link to={withReturnUrl('../', returnUrl)} className="button block" part="button">
        {t('login.backToSignIn')}
      </Link>
    </Card>
  );
}
