import { useEffect } from 'react';
import { useStore } from 'zustand';
import { ApiError } from '../../api/client';
import {
  connectFormAction,
  disconnectProvider,
  type PasswordOptions,
  type ProviderName,
} from '../../api/endpoints';
import { noticesStore } from '../../state/notices';
import { sessionStore } from '../../state/session';
import { useElement } from '../../ui/element-context';
import { useRouter, useSearchParam } from '../../ui/router';
import { fillXsrfField, XsrfField } from '../../ui/xsrf-field';

/**
 * Third-party accounts (spec §2, §4, §6, §8): for each provider the team offers, Connect (a form posted
 * to the server, which goes to the provider and back to /manage) or 'connected as …' and Disconnect.
 * Disconnecting the only way to sign in — no password and one external account — is refused here
 * already (and by the server, atomically).
 */
export function ThirdPartyPanel({ options, reload }: { options: PasswordOptions; reload(): void }) {
  const { t, issuer, language } = useElement();
  const router = useRouter();
  const team = useStore(sessionStore, (state) => state.team);
  const linkError = useSearchParam('Error');

  // A failed connect comes back as /manage?Error=…: say so once, then drop it from the address.
  useEffect(() => {
    if (!linkError) return;
    noticesStore
      .getState()
      .show(
        linkError === 'UserAlreadyExists'
          ? t('manage.external.linkedElsewhere')
          : t('manage.external.connectFailed'),
        'Failure',
      );
    router.navigate(router.location.path, { replace: true });
  }, [linkError, router, t]);

  if (!team) return null;
  const providers: Array<[ProviderName, string]> = [];
  if (team.googleOptions) providers.push(['Google', 'Google']);
  if (team.azureOptions) providers.push(['AzureAD', 'Microsoft']);
  // The generic provider goes by the team's display name ('Acme SSO') everywhere here, its removed and
  // failed notices included, rather than 'Auth0': spec §8 lists one notice per provider kind, and §2 labels
  // this provider by its display name — the name the user sees on its row and its button, and on the
  // sign-in screen. 'Auth0' is the vendor behind it, which the user may never have heard of.
  if (team.auth0Options) providers.push(['Auth0', team.auth0Options.displayName]);
  if (providers.length === 0) return null;

  const onlyWayIn = !options.hasPassword && options.externalAccounts.length === 1;

  async function disconnect(provider: ProviderName, label: string) {
    if (onlyWayIn) {
      noticesStore.getState().show(t('manage.external.onlyOption'), 'Failure');
      return;
    }
    try {
      await sessionStore.getState().authorized((ctx) => disconnectProvider(ctx, provider), language);
      noticesStore.getState().show(t('manage.external.removed', { provider: label }), 'Success');
    } catch (error) {
      // 409: the server found it to be the only sign-in option (the view here was out of date, e.g. the
      // other account was disconnected in another tab) — say why rather than a bare failure.
      const only = error instanceof ApiError && error.status === 409;
      noticesStore
        .getState()
        .show(
          only ? t('manage.external.onlyOption') : t('manage.external.removeFailed', { provider: label }),
          'Failure',
        );
    }
    reload();
  }

  return (
    <section className="panel" part="card" aria-labelledby="third-party-title">
      <h2 className="panel-title" id="third-party-title">
        {t('manage.external.title')}
      </h2>
      <ul className="providers-list">
        {providers.map(([provider, label]) => {
          const account = options.externalAccounts.find((a) => a.providerName === provider);
          return (
            <li key={provider}>
              <div>
                <strong>{label}</strong>
                <p className="hint">
                  {account
                    ? t('manage.external.connectedAs', { username: account.userName })
                    : t('manage.external.notConnected')}
                </p>
              </div>
              {account ? (
                <button
                  type="button"
                  className="button secondary small"
                  part="button"
                  aria-label={t('manage.external.disconnectLabel', { provider: label })}
                  onClick={() => void disconnect(provider, label)}
                >
                  {t('manage.external.disconnect')}
                </button>
              ) : (
                <form method="post" action={connectFormAction({ issuer }, provider)} onSubmit={fillXsrfField}>
                  <XsrfField />
                  <button
                    type="submit"
                    className="button small"
                    part="button"
                    aria-label={t('manage.external.connectLabel', { provider: label })}
                  >
                    {t('manage.external.connect')}
                  </button>
                </form>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
