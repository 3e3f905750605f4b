import { useTranslation } from 'react-i18next';
import { useElement } from './element-context';

/** For an element that needs a signed-in user, when there is none: say so and offer the sign-in page. */
export function SignInPrompt() {
  const { t } = useTranslation();
  const { issuer } = useElement();
  return (
    <section className="panel" part="card">
      <p>{t('manage.signedOut')}</p>
      <a className="button" part="button" href={`${issuer}/login/team`}>
        {t('manage.signIn')}
      </a>
    </section>
  );
}
