import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Said } from '../../i18n/said';
import { ApiError } from '../../api/client';
import { resetPassword } from '../../api/endpoints';
import { Alert } from '../../ui/alert';
import { Card, LoadingCard } from '../../ui/card';
import { useElement } from '../../ui/element-context';
import { BusyForm } from '../../ui/busy-form';
import { useFocusAfterRender } from '../../ui/focus';
import { Link, useRouter, useSearchParam } from '../../ui/router';
import {
  NewPasswordFields,
  newPasswordErrors,
  passwordRefusal,
  useNewPassword,
} from '../../ui/new-password-fields';
import { ProviderOnlyNotice, providerOnly } from './provider-only';
import { withReturnUrl } from './routes';
import { useTeam } from './use-team';

type State = 'form' | 'error' | 'success';

/**
 * Reset password (spec §2, §4, §5, §8): with `id` and `token` from the mailed link. Both fields required
 * and equal; a 400 shows the server's message on both fields, a 401 goes to `/`, anything else is the
 * error state with a try-again link; success offers the sign-in link. A team that signs in only with
 * its provider has no password to reset: the screen says so instead.
 */
export function ResetScreen({ team }: { team: string }) {
  const { t } = useTranslation();
  const { issuer, language } = useElement();
  const router = useRouter();
  const id = useSearchParam('id');
  const token = useSearchParam('token');
  const returnUrl = useSearchParam('ReturnUrl');
  const newPassword = useNewPassword();
  const { password, confirm, passwordRef: passwordInput, confirmRef: confirmInput } = newPassword;
  const [errors, setErrors] = useState<{ password?: Said; confirm?: Said }>({});
  const [state, setState] = useState<State>('form');
  const [busy, setBusy] = useState(false);
  const focusLater = useFocusAfterRender();
  const teamState = useTeam(issuer, team);
  const complete = !!id && !!token;
  const showsForm = teamState.status !== 'loading';

  useEffect(() => {
    if (!complete) router.navigate('/', { replace: true });
    else if (showsForm) passwordInput.current?.focus();
  }, [complete, router, showsForm, passwordInput]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = newPasswordErrors(password, confirm);
    setErrors(found);
    if (found.password || found.confirm) {
      (found.password ? passwordInput : confirmInput).current?.focus();
      return;
    }
    setBusy(true);
    try {
      await resetPassword(
        { issuer, language },
        { teamName: team, userId: id!, token: token!, newPassword: password },
      );
      setState('success');
    } catch (caught) {
      const status = caught instanceof ApiError ? caught.status : 0;
      if (status === 401) {
        router.navigate('/', { replace: true });
        return;
      }
      // Spec §4: the server's message (the password policy's) shows on both fields.
      if (status === 400 && caught instanceof ApiError) {
        const refusal = passwordRefusal(caught);
        setErrors({ password: refusal, confirm: refusal });
        setBusy(false);
        focusLater(passwordInput);
        return;
      }
      setState('error');
    }
    setBusy(false);
  }

  if (!complete) return null;
  if (teamState.status === 'loading') return <LoadingCard />;
  if (teamState.status === 'ready' && providerOnly(teamState.details)) {
    return <ProviderOnlyNotice team={team} details={teamState.details} title={t('login.reset.title')} />;
  }
  if (state === 'success') {
    return (
      <Card>
        <h1 className="title">{t('login.reset.successTitle')}</h1>
        <Alert tone="success">{t('login.reset.success')}</Alert>
        <Link to={withReturnUrl('../', returnUrl)} className="button block" part="button">
          {t('login.reset.signIn')}
        </Link>
      </Card>
    );
  }
  if (state === 'error') {
    return (
      <Card>
        <h1 className="title">{t('login.reset.errorTitle')}</h1>
        <Alert tone="error">{t('login.reset.invalid')}</Alert>
        <Link to={withReturnUrl('../forgotPassword', returnUrl)} className="button block" part="button">
          {t('login.reset.tryAgain')}
        </Link>
      </Card>
    );
  }
  return (
    <Card busy={busy}>
      <h1 className="title">{t('login.reset.title')}</h1>
      <BusyForm
        busy={busy}
        busyLabel={t('common.loading')}
        submitLabel={t('login.reset.submit')}
        onSubmit={submit}
      >
        <NewPasswordFields {...newPassword} errors={errors} />
      </BusyForm>
    </Card>
  );
}

export default ResetScreen;
