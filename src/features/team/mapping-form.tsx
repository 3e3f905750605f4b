import { useId, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import type { TeamConnection } from '../../api/connections';
import { NAME_ID, type ConnectionMapping } from '../../contract/connections';
import { TextField } from '../../ui/text-field';
import { failure } from './admin-kit';
import { FieldsForm, LITERAL, useSaveConnection, type DetailsFormProps } from './connection-form';

const CLAIMS = ['email', 'id', 'givenName', 'familyName', 'groups'] as const;
type Claim = (typeof CLAIMS)[number];
/** The claims a connection cannot do without. */
const REQUIRED: ReadonlySet<Claim> = new Set(['email', 'id']);
/** How an admin writes the SAML subject's NameID as a source. */
const NAME_ID_WORD = 'NameID';

const shown = (source: string | null) => (source === NAME_ID ? NAME_ID_WORD : (source ?? ''));
const stored = (text: string) =>
  text.trim().toLowerCase() === NAME_ID_WORD.toLowerCase() ? NAME_ID : text.trim();

/** Where each claim is read from, as the connection's row shows it. */
export function MappingFacts({ connection }: { connection: TeamConnection }) {
  const { t } = useTranslation();
  return (
    <dl className="member-facts domain-record">
      {CLAIMS.map((claim) => (
        <div key={claim}>
          <dt>{t(`connections.mapping.${claim}`)}</dt>
          <dd>
            {connection.mapping[claim] === null ? (
              t('connections.mapping.unused')
            ) : (
              <code>{shown(connection.mapping[claim])}</code>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The hint under each field: SAML's attribute names (or the NameID), OpenID Connect's claim names. */
function hintOf(t: TFunction, connection: TeamConnection, claim: Claim) {
  const kind = connection.protocol === 'oidc' ? 'oidcHint' : 'samlHint';
  return REQUIRED.has(claim) ? t(`connections.mapping.${kind}`) : t(`connections.mapping.${kind}Optional`);
}

/**
 * Which attribute (SAML) or claim (OpenID Connect) holds the e-mail, the stable id, the names and the
 * groups. A change is another provider's answer to read: the connection is off until a test passes.
 */
export function MappingForm(props: DetailsFormProps) {
  const { connection, busy, onClose } = props;
  const { t } = useTranslation();
  const say = useSay();
  const save = useSaveConnection(props);
  const intro = useId();
  const [draft, setDraft] = useState<Record<Claim, string>>(
    () =>
      Object.fromEntries(CLAIMS.map((claim) => [claim, shown(connection.mapping[claim])])) as Record<
        Claim,
        string
      >,
  );
  const [problems, setProblems] = useState<Partial<Record<Claim | 'form', Said>>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing: Partial<Record<Claim, Said>> = {};
    for (const claim of REQUIRED) if (!draft[claim].trim()) missing[claim] = ['connections.errors.required'];
    setProblems(missing);
    if (Object.keys(missing).length > 0) return;
    const optional = (claim: Claim) => (draft[claim].trim() ? stored(draft[claim]) : null);
    const mapping: ConnectionMapping = {
      email: stored(draft.email),
      id: stored(draft.id),
      givenName: optional('givenName'),
      familyName: optional('familyName'),
      groups: optional('groups'),
    };
    await save({ mapping }, 'connections.mapping.done', (error) => setProblems({ form: failure(error) }));
  }

  return (
    <FieldsForm
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('connections.details.submit')}
      problems={problems}
    >
      <p className="hint" id={intro}>
        {t('connections.mapping.intro')}
      </p>
      {CLAIMS.map((claim, index) => (
        <TextField
          key={claim}
          label={t(`connections.mapping.${claim}`)}
          hint={hintOf(t, connection, claim)}
          name={claim}
          {...LITERAL}
          maxLength={300}
          value={draft[claim]}
          onChange={(event) => setDraft((all) => ({ ...all, [claim]: event.target.value }))}
          error={say(problems[claim])}
          autoFocus={index === 0}
        />
      ))}
    </FieldsForm>
  );
}
