import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { type TeamConnection } from '../../api/connections';
import { TextField } from '../../ui/text-field';
import { failure } from './admin-kit';
import { FieldsForm, LITERAL, useSaveConnection, type DetailsFormProps } from './connection-form';
import { refusalOf } from './format';

type Field = 'issuer' | 'clientId' | 'clientSecret';
/** The server's refusals the form says at their field. */
const REFUSALS = ['invalidUri', 'insecureUri', 'fragmentUri'];

/** An OpenID Connect connection's provider details as its row shows them; the secret only as set. */
export function OidcFacts({ connection }: { connection: TeamConnection }) {
  const { t } = useTranslation();
  return (
    <dl className="member-facts domain-record">
      <div>
        <dt>{t('connections.oidc.issuer')}</dt>
        <dd>
          <code>{connection.issuer}</code>
        </dd>
      </div>
      <div>
        <dt>{t('connections.oidc.clientId')}</dt>
        <dd>
          <code>{connection.clientId}</code>
        </dd>
      </div>
      <div>
        <dt>{t('connections.oidc.clientSecret')}</dt>
        <dd>{t('connections.oidc.secretSet')}</dd>
      </div>
    </dl>
  );
}

/**
 * An OpenID Connect provider's details: its issuer, and this site's client id and secret there. A
 * secret already saved is never shown; an empty field keeps it. Problems show at their field, the
 * text typed kept.
 */
export function OidcDetailsForm(props: DetailsFormProps) {
  const { connection, busy, onClose } = props;
  const { t } = useTranslation();
  const say = useSay();
  const save = useSaveConnection(props);
  const [draft, setDraft] = useState<Record<Field, string>>({
    issuer: connection.issuer ?? '',
    clientId: connection.clientId ?? '',
    clientSecret: '',
  });
  const [problems, setProblems] = useState<Partial<Record<Field | 'form', Said>>>({});
  const set = (field: Field, value: string) => setDraft((all) => ({ ...all, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing: Partial<Record<Field, Said>> = {};
    for (const field of ['issuer', 'clientId'] as const)
      if (!draft[field].trim()) missing[field] = ['connections.errors.required'];
    if (!connection.hasClientSecret && !draft.clientSecret.trim())
      missing.clientSecret = ['connections.errors.required'];
    setProblems(missing);
    if (Object.keys(missing).length > 0) return;
    const change = {
      issuer: draft.issuer.trim(),
      clientId: draft.clientId.trim(),
      ...(draft.clientSecret.trim() ? { clientSecret: draft.clientSecret.trim() } : {}),
    };
    await save(change, 'connections.details.done', (error) => {
      const { code, field } = refusalOf(error);
      setProblems(
        field === 'issuer' && code && REFUSALS.includes(code)
          ? { issuer: [`connections.errors.${code}`] }
          : { form: failure(error) },
      );
    });
  }

  return (
    <FieldsForm
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('connections.details.submit')}
      problems={problems}
    >
      <p className="hint">{t('connections.presets.oidc.details')}</p>
      <TextField
        label={t('connections.oidc.issuer')}
        hint={t('connections.oidc.issuerHint')}
        name="issuer"
        type="url"
        {...LITERAL}
        value={draft.issuer}
        onChange={(event) => set('issuer', event.target.value)}
        error={say(problems.issuer)}
        autoFocus
      />
      <TextField
        label={t('connections.oidc.clientId')}
        name="clientId"
        {...LITERAL}
        value={draft.clientId}
        onChange={(event) => set('clientId', event.target.value)}
        error={say(problems.clientId)}
      />
      <TextField
        label={t('connections.oidc.clientSecret')}
        hint={connection.hasClientSecret ? t('connections.oidc.secretKept') : null}
        name="clientSecret"
        type="password"
        autoComplete="off"
        dir="ltr"
        value={draft.clientSecret}
        onChange={(event) => set('clientSecret', event.target.value)}
        error={say(problems.clientSecret)}
      />
    </FieldsForm>
  );
}
