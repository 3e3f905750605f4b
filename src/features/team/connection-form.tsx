import { useEffect, useRef, type ComponentProps } from 'react';
import { useSay, type Said } from '../../i18n/said';
import { changeTeamConnection, type TeamConnection } from '../../api/connections';
import { DialogForm } from '../../ui/dialog';
import { notify, useDialogCall, type InDialogProps } from './admin-kit';

// What the dialogs that change a single sign-on connection share (its provider's details, SAML's and
// OpenID Connect's, and its mapping), and its list with them: how a form shows its problems and how a
// change is saved and told.

/** A field for an address, an identifier or a secret: typed as is, left to right in any language. */
export const LITERAL = { autoComplete: 'off', spellCheck: false, dir: 'ltr' } as const;

/** What a dialog of a connection's provider details is given (SAML's and OpenID Connect's alike). */
export interface DetailsFormProps extends InDialogProps {
  connection: TeamConnection;
  onSaved(connection: TeamConnection): void;
}

/**
 * A dialog's form whose problems show at their fields: the first field in error takes the focus once
 * the errors are on screen and the form is enabled; `problems.form`, a refusal of the whole form.
 */
export function FieldsForm({
  problems,
  ...form
}: Omit<ComponentProps<typeof DialogForm>, 'error'> & { problems: { form?: Said } }) {
  const say = useSay();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problems]);
  return (
    <div ref={box}>
      <DialogForm {...form} error={say(problems.form)} />
    </div>
  );
}

/** A change to a connection, as its route takes it. */
type Change = Parameters<typeof changeTeamConnection>[2];

/** What a saved change to a connection says it did. */
type Done = 'connections.details.done' | 'connections.mapping.done' | 'connections.metadata.refreshed';

/**
 * What a save of the connection says: `done`, or that the connection is off until a test passes again
 * (the change named another entity ID, sign-on URL or provider: its answers are to be read again).
 */
export function savedText(before: TeamConnection, saved: TeamConnection, done: Done): Said {
  if (before.enabled && !saved.enabled) return ['connections.metadata.turnedOff', { connection: saved.name }];
  return [done, { connection: saved.name }];
}

/**
 * Saves a change to the dialog's connection (see {@link useDialogCall}): the list gets it and the
 * notice says it ({@link savedText}); a refusal goes to `refused`.
 */
export function useSaveConnection(props: DetailsFormProps) {
  const { connection, onSaved } = props;
  const send = useDialogCall(props);
  return (change: Change, done: Done, refused: (error: unknown) => void) =>
    send(
      (ctx) => changeTeamConnection(ctx, connection.id, change),
      (saved) => {
        onSaved(saved);
        notify(savedText(connection, saved, done));
      },
      refused,
    );
}
