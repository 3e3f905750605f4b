import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changeTeamConnection, type TeamConnection } from '../../api/connections';
import { PERMISSIONS, type Permission } from '../../contract/permissions';
import { noticesStore } from '../../state/notices';
import { failure, useCall } from './admin-kit';

/** What a member made by their first sign-in may get: anything but ownership, which an owner gives. */
const GRANTABLE = PERMISSIONS.filter((permission) => permission !== 'OWNER');

/**
 * A connection's sign-in options: whether answers the provider sends unasked (a sign-in started from
 * its app list) are taken, and the permissions a member made just in time gets.
 */
export function ConnectionOptions({
  connection,
  onSaved,
}: {
  connection: TeamConnection;
  onSaved(connection: TeamConnection): void;
}) {
  const { t } = useTranslation();
  const call = useCall();
  const id = useId();
  const name = connection.name;
  const [unasked, setUnasked] = useState(connection.idpInitiated);
  const [granted, setGranted] = useState<Permission[]>(connection.defaultPermissions);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((item) => b.includes(item));
  const changed = unasked !== connection.idpInitiated || !same(granted, connection.defaultPermissions);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy || !changed) return;
    setBusy(true);
    setError(null);
    try {
      const saved = await call((ctx) =>
        changeTeamConnection(ctx, connection.id, { idpInitiated: unasked, defaultPermissions: granted }),
      );
      onSaved(saved);
      noticesStore.getState().show(t('connections.options.done', { connection: name }), 'Success');
    } catch (problem) {
      setError(failure(t, problem));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack tight" onSubmit={(event) => void save(event)}>
      <h3 className="group-name">{t('connections.options.heading')}</h3>
      <label className="check">
        <input
          type="checkbox"
          checked={unasked}
          aria-labelledby={`${id}-unasked-name`}
          aria-describedby={`${id}-unasked`}
          onChange={(event) => setUnasked(event.target.checked)}
        />
        <span>
          <span className="check-name" id={`${id}-unasked-name`}>
            {t('connections.options.idpInitiated')}
          </span>
          <span className="hint" id={`${id}-unasked`}>
            {t('connections.options.idpInitiatedHint')}
          </span>
        </span>
      </label>
      <fieldset className="stack tight" aria-describedby={`${id}-granted`}>
        <legend className="check-name">{t('connections.options.permissions')}</legend>
        <p className="hint" id={`${id}-granted`}>
          {t('connections.options.permissionsHint')}
        </p>
        {GRANTABLE.map((permission) => (
          <label key={permission} className="check">
            <input
              type="checkbox"
              checked={granted.includes(permission)}
              onChange={(event) =>
                setGranted(
                  event.target.checked
                    ? [...granted, permission]
                    : granted.filter((held) => held !== permission),
                )
              }
            />
            <span>{t(`manage.permissions.${permission}`)}</span>
          </label>
        ))}
      </fieldset>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div>
        <button
          type="submit"
          className="button secondary small"
          part="button"
          aria-label={t('connections.options.saveLabel', { connection: name })}
          aria-disabled={busy || !changed || undefined}
        >
          {busy ? t('common.saving') : t('connections.options.save')}
        </button>
      </div>
    </form>
  );
}
