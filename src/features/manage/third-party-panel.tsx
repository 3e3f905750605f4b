import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import {
  connectFormAction,
  disconnectProvider,
  type PasswordOptions,
  type ProviderName,
} from '../../api/endpoints';
import { noticesStore } from '../../state/notices';
import { sessionStore } from '../../state/session';
import { QuestionDialog } from '../../ui/confirm-dialog';
import { useElement } from '../../ui/element-context';
import { useRouter, useSearchParam } from '../../ui/router';
import { fillXsrfField, XsrfField } from '../../ui/xsrf-field';

/** The account a Disconnect button asks about. */
interface Question {
  provider: ProviderName;
  label: string;
  userName: string;
}

/** A provider's Connect button, once its row shows one (a form's submit button; Disconnect is not). */
function connectButton(list: HTMLElement | null, provider: ProviderName): HTMLElement | null {
  return list?.querySelector<HTMLElement>(`[data-provider="${provider}"] button[type="submit"]`) ?? null;
}

/**
 * Third-party accounts (spec §2, §4, §6, §8): for each provider the team offers, Connect (a form posted
 * to the server, which goes to the provider and back to /manage) or 'connected as …' and Disconnect.
 * Disconnecting asks first, naming the account, since it cannot be undone from here (connecting again
 * means a round trip to the provider). Disconnecting the only way to sign in — no password and one
 * external account — is refused at once, without the question (and by the server, atomically).
 */
export function ThirdPartyPanel({ options, reload }: { options: PasswordOptions; reload(): void }) {
  const { t } = useTranslation();
  const { issuer, language } = useElement();
  const router = useRouter();
  const team = useStore(sessionStore, (state) => state.team);
  const linkError = useSearchParam('Error');
  // The question stays while the dialog plays its closing animation; `asking` opens and closes it.
  const [question, setQuestion] = useState<Question | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  // The provider just disconnected: its Disconnect button, where focus would go back, is gone once the
  // options reload, and focus goes to the Connect button in its place — from the dialog if they reloaded
  // while it closed (the page is inert until then), from here if they reload after.
  const refocus = useRef<ProviderName | null>(null);

  useEffect(() => {
    const provider = refocus.current;
    if (!provider || options.externalAccounts.some((a) => a.providerName === provider)) return;
    refocus.current = null;
    connectButton(list.current, provider)?.focus();
  }, [options]);

  // A failed connect comes back as /manage?Error=…: say so once, then drop it from the address.
  useEffect(() => {
    if (!linkError) return;
    noticesStore
      .getState()
      .show(
        linkError === 'UserAlreadyExists'
          ? ['manage.external.linkedElsewhere']
          : ['manage.external.connectFailed'],
        'Failure',
      );
    router.navigate(router.location.path, { replace: true });
  }, [linkError, router, t]);

  if (!team) return null;
  const providers: Array<[ProviderName, string]> = [];
  if (team.googleOptions) providers.push(['Google', 'Google']);
  if (team.azureOptions) providers.push(['AzureAD', 'Microsoft']);
  if (team.appleOptions) providers.push(['Apple', 'Apple']);
  // The generic provider goes by the team's display name ('Acme SSO') everywhere here, its removed and
  // failed notices included, rather than 'Auth0': spec §8 lists one notice per provider kind, and §2 labels
  // this provider by its display name — the name the user sees on its row and its button, and on the
  // sign-in screen. 'Auth0' is the vendor behind it, which the user may never have heard of.
  if (team.auth0Options) providers.push(['Auth0', team.auth0Options.displayName]);
  if (providers.length === 0) return null;

  const onlyWayIn = !options.hasPassword && options.externalAccounts.length === 1;

  function ask(next: Question) {
    if (onlyWayIn) {
      noticesStore.getState().show(['manage.external.onlyOption'], 'Failure');
      return;
    }
    setQuestion(next);
    setAsking(true);
  }

  async function disconnect({ provider, label }: Question) {
    setBusy(true);
    try {
      await sessionStore.getState().authorized((ctx) => disconnectProvider(ctx, provider), language);
      noticesStore.getState().show(['manage.external.removed', { provider: label }], 'Success');
      refocus.current = provider;
    } catch (error) {
      // 409: the server found it to be the only sign-in option (the view here was out of date, e.g. the
      // other account was disconnected in another tab) — say why rather than a bare failure.
      const only = error instanceof ApiError && error.status === 409;
      noticesStore
        .getState()
        .show(
          only ? ['manage.external.onlyOption'] : ['manage.external.removeFailed', { provider: label }],
          'Failure',
        );
    }
    setBusy(false);
    setAsking(false);
    reload();
  }

  return (
    <section className="panel" part="card" aria-labelledby="third-party-title">
      <h2 className="panel-title" id="third-party-title">
        {t('manage.external.title')}
      </h2>
      <ul className="providers-list" ref={list}>
        {providers.map(([provider, label]) => {
          const account = options.externalAccounts.find((a) => a.providerName === provider);
          return (
            <li key={provider} data-provider={provider}>
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
                  onClick={() => ask({ provider, label, userName: account.userName })}
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
      {question ? (
        <QuestionDialog
          open={asking}
          title={t('manage.external.confirm.title', { provider: question.label })}
          text={t('manage.external.confirm.text', { provider: question.label, username: question.userName })}
          action={t('manage.external.disconnect')}
          busy={busy}
          returnFocus={() => connectButton(list.current, question.provider)}
          onConfirm={() => void disconnect(question)}
          onClose={() => setAsking(false)}
        />
      ) : null}
    </section>
  );
}
