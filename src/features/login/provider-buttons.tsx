import { providerFormAction, type TeamPublic } from '../../api/endpoints';
import { useElement } from '../../ui/element-context';
import { fillXsrfField, XsrfField } from '../../ui/xsrf-field';

type Provider = 'google' | 'azure' | 'auth0';

/**
 * One real form per enabled provider, posted to `/account/{provider}` (spec §7): the anti-forgery field
 * (filled from the XSRF-TOKEN cookie when the form is sent; see ui/xsrf-field.tsx), the team, the
 * validated return URL and max_age.
 */
export function ProviderButtons({
  team,
  details,
  returnUrl,
  maxAge,
  disabled,
}: {
  team: string;
  details: TeamPublic;
  returnUrl: string | null;
  maxAge: string | null;
  disabled: boolean;
}) {
  const { t, issuer } = useElement();
  const providers: Array<[Provider, string]> = [];
  if (details.googleOptions) providers.push(['google', t('login.providers.google')]);
  if (details.azureOptions) providers.push(['azure', t('login.providers.microsoft')]);
  if (details.auth0Options) {
    providers.push(['auth0', t('login.providers.generic', { name: details.auth0Options.displayName })]);
  }
  if (providers.length === 0) return null;
  return (
    <div className="stack providers">
      {providers.map(([provider, label]) => (
        <form
          key={provider}
          method="post"
          action={providerFormAction({ issuer }, provider)}
          onSubmit={fillXsrfField}
        >
          <XsrfField />
          <input type="hidden" name="teamName" value={team} />
          <input type="hidden" name="returnUrl" value={returnUrl ?? ''} />
          <input type="hidden" name="maxAge" value={maxAge ?? ''} />
          <button
            className={`button secondary block provider provider-${provider}`}
            part="button"
            type="submit"
            disabled={disabled}
          >
            {label}
          </button>
        </form>
      ))}
    </div>
  );
}
