import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { setSeatLimit, type TeamAdmin } from '../../api/team';
import { sessionStore } from '../../state/session';
import { Dialog, DialogForm } from '../../ui/dialog';
import { useElement } from '../../ui/element-context';
import { TextField } from '../../ui/text-field';
import { refusalOf } from './format';

/** The server's bounds of a seat limit (schemas/team.ts SEAT_LIMIT_MAX). */
const LIMIT_MAX = 100_000;

/** Manage user limit (owners): a whole number, never below the users and invitations the team has. */
export function SeatLimitDialog({
  open,
  team,
  onClose,
  onSaved,
}: {
  open: boolean;
  team: TeamAdmin;
  onClose(): void;
  onSaved(team: TeamAdmin): void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('team.limitDialog.title')} onClose={onClose}>
      <LimitForm key={String(open)} team={team} onClose={onClose} onSaved={onSaved} />
    </Dialog>
  );
}

function LimitForm({
  team,
  onClose,
  onSaved,
}: {
  team: TeamAdmin;
  onClose(): void;
  onSaved(team: TeamAdmin): void;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const { language } = useElement();
  const [value, setValue] = useState(String(team.seats.limit));
  const [error, setError] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const limit = Number(value.trim());
    const refuse = (message: Said) => {
      setBusy(false);
      setError(message);
      input.current?.focus();
    };
    if (!/^\d+$/.test(value.trim()) || limit < 1 || limit > LIMIT_MAX)
      return refuse(['team.limitDialog.invalid', { max: LIMIT_MAX }]);
    if (limit < team.seats.used) return refuse(['team.limitDialog.belowCount']);
    setError(null);
    setBusy(true);
    try {
      onSaved(await sessionStore.getState().authorized((ctx) => setSeatLimit(ctx, limit), language));
    } catch (failure) {
      const { code } = refusalOf(failure);
      // 409: more users or invitations arrived meanwhile (the server decides with the team's row held).
      if (code === 'belowCount') refuse(['team.limitDialog.belowCount']);
      else if (code === 'invalidLimit') refuse(['team.limitDialog.invalid', { max: LIMIT_MAX }]);
      else refuse(['common.failed']);
    }
  }

  return (
    <DialogForm busy={busy} onSubmit={submit} onClose={onClose} submitLabel={t('team.limitDialog.submit')}>
      <TextField
        label={t('team.limitDialog.label')}
        name="limit"
        inputMode="numeric"
        autoComplete="off"
        maxLength={7}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        hint={t('team.limitDialog.hint', {
          members: t('team.limitDialog.members', { count: team.seats.members }),
          pending:
            team.seats.pending === 0
              ? t('team.limitDialog.pendingNone')
              : t('team.limitDialog.pending', { count: team.seats.pending }),
          used: team.seats.used,
          limit: team.seats.limit,
        })}
        error={say(error)}
        inputRef={input}
        autoFocus
      />
    </DialogForm>
  );
}
