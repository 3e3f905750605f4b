import { useRef, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { saveName } from '../../api/endpoints';
import { noticesStore } from '../../state/notices';
import { sessionStore } from '../../state/session';
import { Dialog, DialogForm } from '../../ui/dialog';
import { useElement } from '../../ui/element-context';
import { TextField } from '../../ui/text-field';
import { charCount, LIMITS } from '../../contract/limits';

/**
 * Change name (spec §2, §5): 'Your name', Cancel and Set name; required, at most 50 characters after
 * trimming; a server failure marks the field invalid. On success every element showing the name updates.
 */
export function NameDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { language } = useElement();
  return (
    <Dialog open={open} title={t('manage.name.title')} onClose={onClose}>
      <NameForm key={String(open)} onClose={onClose} t={t} language={language} />
    </Dialog>
  );
}

function NameForm({ onClose, t, language }: { onClose(): void; t: TFunction; language: string }) {
  const say = useSay();
  const current = sessionStore.getState().user?.name ?? '';
  const [name, setName] = useState(current);
  const [error, setError] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    const problem: Said | null = !trimmed
      ? ['manage.name.required']
      : charCount(trimmed) > LIMITS.name
        ? ['manage.name.tooLong', { n: LIMITS.name }]
        : null;
    if (problem) {
      setError(problem);
      input.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const saved = await sessionStore.getState().authorized((ctx) => saveName(ctx, trimmed), language);
      sessionStore.getState().renamed(saved.name);
      noticesStore.getState().show(['manage.name.saved'], 'Success');
      onClose();
    } catch {
      setBusy(false);
      setError(['manage.name.failed']);
      input.current?.focus();
    }
  }

  return (
    <DialogForm busy={busy} onSubmit={submit} onClose={onClose} submitLabel={t('manage.name.submit')}>
      <TextField
        label={t('manage.name.label')}
        name="name"
        autoComplete="name"
        limit={LIMITS.name}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={say(error)}
        inputRef={input}
        autoFocus
      />
    </DialogForm>
  );
}
