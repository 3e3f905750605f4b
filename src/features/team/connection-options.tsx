import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changeTeamConnection, type TeamConnection } from '../../api/connections';
import { PERMISSIONS, type Permission } from '../../contract/permissions';
import { Check, notify, SaveButton, SaveProblem, useCall, useSaveInPlace } from './admin-kit';

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
  const { busy, error, saveChange } = useSaveInPlace();
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((item) => b.includes(item));
  const changed = unasked !== connection.idpInitiated || !same(granted, connection.defaultPermissions);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!changed) return;
    await saveChange(async () => {
      const saved = await call((ctx) =>
        changeTeamConnection(ctx, connection.id, { idpInitiated: unasked, defaultPermissions: granted }),
      );
      onSaved(saved);
      notify(['connections.options.done', { connection: name }]);
    });
  }

  return (
    <form className="stack tight" onSubmit={(event) => void save(event)}>
      <h3 className="group-name">{t('connections.options.heading')}</h3>
      <Check
        label={t('connections.options.idpInitiated')}
        hint={t('connections.options.idpInitiatedHint')}
        checked={unasked}
        onChange={setUnasked}
      />
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
      <SaveProblem error={error} />
      <SaveButton
        busy={busy}
        changed={changed}
        label={t('connections.options.saveLabel', { connection: name })}
        text={t('connections.options.save')}
      />
    </form>
  );
}
