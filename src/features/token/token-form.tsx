import { useEffect, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { getPolicies, tokenFormAction, type PolicyDefinition } from '../../api/endpoints';
import { readSavedScopes, saveScopes } from '../../state/preferences';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { useElement } from '../../ui/element-context';
import { useSearchParam } from '../../ui/router';
import { useScreenTitle } from '../../ui/screen-title';
import { ScreenLoading, Spinner } from '../../ui/spinner';
import { fillXsrfField, XsrfField } from '../../ui/xsrf-field';
import { WithTextPart } from '../../i18n/parts';
import { Failed } from '../../ui/failed';
import '../../styles/screens-sheet';

const ERRORS: Record<string, string> = {
  ScopeNotAllowed: 'token.errors.notAllowed',
  NoScope: 'token.errors.noScope',
  UnknownScope: 'token.errors.unknown',
};

/**
 * Developer tools (spec §2): one checkbox per policy definition (named `scope`, valued with its name,
 * checked from the saved scopes and remembered when changed), the anti-forgery field, and a real form
 * posted to /home/token — the server answers with the success page and the tokens in its fragment.
 */
export default function TokenForm() {
  return (
    <WithTextPart part="account" waiting={<ScreenLoading />} failed={<Failed />}>
      <TokenPanel />
    </WithTextPart>
  );
}

function TokenPanel() {
  const { t } = useTranslation();
  const { issuer, language, brand } = useElement();
  const [policies, setPolicies] = useState<PolicyDefinition[] | null | 'failed'>(null);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(readSavedScopes()));
  const [empty, setEmpty] = useState(false);
  const errorCode = useSearchParam('Error');
  const screenTitle = useScreenTitle();

  useEffect(() => {
    let live = true;
    sessionStore
      .getState()
      .authorized((ctx) => getPolicies(ctx), language)
      .then(
        (loaded) => live && setPolicies(loaded),
        () => live && setPolicies('failed'),
      );
    return () => {
      live = false;
    };
  }, [language]);

  function toggle(name: string, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(name);
    else next.delete(name);
    setChosen(next);
    setEmpty(false);
    saveScopes([...next]);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    // Let the browser post the form (a navigation to the success page); stop only an empty choice.
    if (!Array.isArray(policies) || !policies.some((p) => chosen.has(p.name))) {
      event.preventDefault();
      setEmpty(true);
    } else fillXsrfField(event);
  }

  const error = empty
    ? t('token.errors.noScope')
    : errorCode && ERRORS[errorCode]
      ? t(ERRORS[errorCode]!)
      : null;
  // In the manage area its heading names the panel; on its own (<acct-token>) the panel has a title.
  return (
    <section className="panel" part="card" aria-labelledby={screenTitle ?? 'dev-title'}>
      {screenTitle ? null : (
        <h2 className="panel-title" id="dev-title">
          {t('token.title')}
        </h2>
      )}
      <div className="panel-heading">
        <p>{t('token.intro')}</p>
        {brand.apiDocsUrl ? (
          <a
            className="icon-link"
            href={brand.apiDocsUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('token.docs')}
          >
            <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
              <path
                fill="currentColor"
                d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 17h-2v-2h2zm2.07-7.75-.9.92A3.4 3.4 0 0 0 13 15h-2v-.5a4 4 0 0 1 1.17-2.83l1.24-1.26A2 2 0 1 0 10 9H8a4 4 0 1 1 7.07 2.25z"
              />
            </svg>
          </a>
        ) : null}
      </div>
      {brand.apiBaseUrl ? (
        <p>
          <Trans
            i18nKey="token.apiBase"
            values={{ address: brand.apiBaseUrl }}
            components={{ code: <code /> }}
          />
        </p>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {policies === null ? (
        <div className="loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      ) : policies === 'failed' ? (
        <Alert tone="error">{t('common.failed')}</Alert>
      ) : (
        <form
          className="stack token-form"
          method="post"
          action={tokenFormAction({ issuer })}
          onSubmit={submit}
        >
          <XsrfField />
          <fieldset className="checks">
            <legend>{t('token.policies')}</legend>
            {policies.map((policy) => (
              <label key={policy.name} className="check">
                <input
                  type="checkbox"
                  name="scope"
                  value={policy.name}
                  checked={chosen.has(policy.name)}
                  onChange={(event) => toggle(policy.name, event.target.checked)}
                />
                <span>
                  <span className="check-name">{policy.name}</span>
                  <span className="hint">
                    {t(`token.policy.${policy.name}`, { defaultValue: policy.description })}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <button type="submit" className="button" part="button">
            {t('token.generate')}
          </button>
        </form>
      )}
    </section>
  );
}
