import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { requestPasswordReset } from '../../api/endpoints';
import { refusalOf } from '../../api/refusal';
import type { Proof } from '../../contract/schemas/challenge';
import { LIMITS } from '../../contract/limits';
import { Alert } from '../../ui/alert';
import { Card, LoadingCard } from '../../ui/card';
import { useElement } from '../../ui/element-context';
import { BusyForm } from '../../ui/busy-form';
import { useFocusAfterRender } from '../../ui/focus';
import { Link, useSearchParam } from '../../ui/router';
import { ProofOfWork } from '../../ui/proof-of-work';
import { TextField } from '../../ui/text-field';
import { isValidEmail } from './email';
import { ProviderOnlyNotice, providerOnly } from './provider-only';
import { withReturnUrl } from './routes';
import { useTeam } from './use-team';

/**
 * Forgot password (spec §2, §5): a required, valid e-mail; after submit the same "a link is on its way"
 * message whether or not the account exists. The request carries a solved proof-of-work challenge,
 * solved in the background from the first key typed. A team that signs in only with its provider has no
 * password to recover: the screen says so instead.
 */
export function ForgotScreen({ team }: { team: string }) {
  const { t } = useTranslation();
  const say = useSay();
  const { issuer, language } = useElement();
  const teamState = useTeam(issuer, team);
  const returnUrl = useSearchParam('ReturnUrl');
  const focusLater = useFocusAfterRender();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<Said | null>(null);
  const [failure, setFailure] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // The request needs a solved proof-of-work challenge: solved while the person types (from their first
  // key), so that sending rarely waits. `round` starts a new one when the server refuses one.
  const [challenge, setChallenge] = useState<{ round: number } | null>(null);
  // The solution not used yet, and the address waiting to be sent once one comes: refs, so that a
  // send made in the moment a solution arrives (before the screen renders again) still sees it.
  const solution = useRef<Proof | null>(null);
  const waiting = useRef<string | null>(null);

  const showsForm = teamState.status !== 'loading';
  useEffect(() => {
    if (showsForm) input.current?.focus();
  }, [showsForm]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (!isValidEmail(email)) {
      setError(['login.forgot.invalidEmail']);
      input.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    if (solution.current) return send(email.trim(), solution.current);
    // Not solved yet (or not started, for an address pasted or filled in): sent when it is.
    waiting.current = email.trim();
    if (!challenge) setChallenge({ round: 0 });
  }

  async function send(address: string, proof: Proof) {
    waiting.current = null;
    // A solution is accepted once: whatever the answer, the next request needs a new one.
    solution.current = null;
    setChallenge((now) => ({ round: (now?.round ?? 0) + 1 }));
    try {
      await requestPasswordReset(
        { issuer, language },
        { teamName: team, userName: address, returnUrl: returnUrl ?? undefined, proof },
      );
      setSentTo(address);
    } catch (caught) {
      const { status, code } = refusalOf(caught);
      // The solution ran out or was spent meanwhile: the next one is on its way, and sends this.
      if (status === 403 && code?.startsWith('challenge') && code !== 'challengeInvalid') {
        waiting.current = address;
        return;
      }
      // The server refuses an address it cannot hold (400): that is about the field.
      if (status === 400) {
        setError(['login.forgot.invalidEmail']);
        focusLater(input);
      } else setFailure(status === 429 ? ['login.forgot.tooMany'] : ['common.failed']);
    }
    setBusy(false);
  }

  function solved(proof: Proof) {
    if (waiting.current !== null) {
      setBusy(true);
      void send(waiting.current, proof);
    } else solution.current = proof;
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
      {failure ? <Alert tone="error">{say(failure)}</Alert> : null}
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
          onChange={(event) => {
            setEmail(event.target.value);
            setChallenge((now) => now ?? { round: 0 });
          }}
          error={say(error)}
          inputRef={input}
        />
      </BusyForm>
      {challenge ? (
        <ProofOfWork key={challenge.round} onSolved={solved} onFailed={() => setBusy(false)} />
      ) : null}
      <Link to={withReturnUrl('../', returnUrl)} className="link" disabled={busy}>
        {t('login.backToSignIn')}
      </Link>
    </Card>
  );
}

export default ForgotScreen;
