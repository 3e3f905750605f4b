import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { requestPasswordReset } from '../../api/endpoints';
import { LIMITS } from '../../contract/limits';
import { Alert } from '../../ui/alert';
import { Card, LoadingCard } from '../../ui/card';
import { useElement } from '../../ui/element-context';
import { BusyForm } from '../../ui/busy-form';
import { useFocusAfterRender } from '../../ui/focus';
import { Link, useSearchParam } from '../../ui/router';
import { TextField } from '../../ui/text-field';
import { isValidEmail } from './email';
import { ProviderOnlyNotice, providerOnly } from './provider-only';
import { withReturnUrl } from './routes';
import { useTeam } from './use-team';

/**
 * Forgot password (spec §2, §5): a required, valid e-mail; after submit the same "a link is on its way"
 * message whether or not the account exists. A team that signs in only with its provider has no
 * password to recover: the screen says so instead.
 */
export function ForgotScreen({ team }: { team: string }) {
  const { t } = useTranslation();
  const { issuer, language } = useElement();
  const teamState = useTeam(issuer, team);
  const returnUrl = useSearchParam('ReturnUrl');
  const focusLater = useFocusAfterRender();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const showsForm = teamState.status !== 'loading';
  useEffect(() => {
    if (showsForm) input.current?.focus();
  }, [showsForm]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (!isValidEmail(email)) {
      setError(t('login.forgot.invalidEmail'));
      input.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await requestPasswordReset(
        { issuer, language },
        { teamName: team, userName: email.trim(), returnUrl: returnUrl ?? undefined },
      );
      setSentTo(email.trim());
    } catch (caught) {
      const status = caught instanceof ApiError ? caught.status : 0;
      // The server refuses an address it cannot hold (400): that is about the field.
      if (status === 400) {
        setError(t('login.forgot.invalidEmail'));
        focusLater(input);
      } else setFailure(status === 429 ? t('login.forgot.tooMany') : t('common.failed'));
    }
    setBusy(false);
  }

  if (teamState.status === 'loading') return <LoadingCard />;
  if (teamState.status === 'ready' && providerOnly(teamState.details)) {
    return <ProviderOnlyNotice team={team} details={teamState.details} title={t('login.forgot.title')} />;
  }

  if (sentTo) {
    return (
      <Card>
        <h1 className="title">{t('login.forgot.sentTitle')}</h1>
        <Alert tone="success">{t('login.forgot.sent', { email: sentTo })}</Alert>
        <Link to={withReturnUrl('../', returnUrl)} className="link" disabled={busy}>
          {t('login.backToSignIn')}
        </Link>
      </Card>
    );
  }

  return (
    <Card busy={busy}>
      <h1 className="title">{t('login.forgot.title')}</h1>
      <p className="lead">{t('login.forgot.intro')}</p>
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <BusyForm
        busy={busy}
        busyLabel={t('common.loading')}
        submitLabel={t('login.forgot.submit')}
        onSubmit={submit}
      >
        <TextField
          label={t('login.email')}
          name="email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={LIMITS.email}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={error}
          inputRef={input}
        />
      </BusyForm>
      <Link to={withReturnUrl('../', returnUrl)} className="link" disabled={busy}>
        {t('login.backToSignIn')}
      </Link>
    </Card>
  );
}
