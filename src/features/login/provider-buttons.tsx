import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProviderKind, TeamPublic } from '../../api/endpoints';
import { Alert } from '../../ui/alert';
import { signInMethodName } from '../../i18n/names';

/**
 * One button per provider the team offers (spec §2), labelled with the provider (the generic one with
 * the team's display name for it). Choosing one is the screen's to carry out.
 */
export function ProviderButtons({
  details,
  disabled,
  onChoose,
}: {
  details: TeamPublic;
  disabled: boolean;
  onChoose(provider: ProviderKind, label: string): void;
}) {
  const { t } = useTranslation();
  // Each labelled with the method's one name, as the team screen's settings are.
  const offered: Array<[ProviderKind, unknown]> = [
    ['google', details.googleOptions],
    ['azure', details.azureOptions],
    ['auth0', details.auth0Options],
    ['apple', details.appleOptions],
  ];
  const providers = offered
    .filter(([, options]) => options)
    .map(([provider]) => {
      const name = signInMethodName(t, provider, details.auth0Options?.displayName ?? '');
      return [provider, name, t('login.providers.generic', { name })] as const;
    });
  if (providers.length === 0) return null;
  return (
    <div className="stack providers">
      {providers.map(([provider, name, label]) => (
        <button
          key={provider}
          className={`button secondary block provider provider-${provider}`}
          part="button"
          type="button"
          disabled={disabled}
          onClick={() => onChoose(provider, name)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/**
 * The ways in that the sign-in and invitation screens share: the refusal of the last attempt (`failure`,
 * whose alert the screen focuses through `failureRef`), the team's provider buttons and `extra` (the
 * passkey button), then — when the team has password sign-in (`form`, else null) — an "or" divider and
 * the form; with no way at all, a note that says so.
 */
export function ProvidersThenForm({
  failure,
  failureRef,
  details,
  disabled,
  onChoose,
  extra,
  form,
}: {
  failure: string | null;
  failureRef: Ref<HTMLDivElement>;
  details: TeamPublic;
  disabled: boolean;
  onChoose(provider: ProviderKind, label: string): void;
  extra?: ReactNode;
  form: ReactNode;
}) {
  const { t } = useTranslation();
  const others = !!(
    details.googleOptions ||
    details.azureOptions ||
    details.auth0Options ||
    details.appleOptions ||
    extra
  );
  return (
    <>
      {failure ? (
        <Alert tone="error" ref={failureRef}>
          {failure}
        </Alert>
      ) : null}
      <ProviderButtons details={details} disabled={disabled} onChoose={onChoose} />
      {extra}
      {form ? (
        <>
          {others ? (
            <div className="divider" role="separator">
              <span>{t('login.or')}</span>
            </div>
          ) : null}
          {form}
        </>
      ) : !others ? (
        <Alert tone="info">{t('login.noMethods')}</Alert>
      ) : null}
    </>
  );
}
