import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSay, type Said } from '../../i18n/said';
import { getPermissions } from '../../api/endpoints';
import { listSetupLinks, revokeSetupLink, sendSetupLink, type SetupLink } from '../../api/setup-links';
import { LIMITS } from '../../contract/limits';
import { DialogForm, FormDialog } from '../../ui/dialog';
import { useElement } from '../../ui/element-context';
import { TextField } from '../../ui/text-field';
import { useSignedInCalls } from '../../ui/use-call';
import {
  Confirm,
  failure,
  notify,
  type InDialogProps,
  TeamListPanel,
  useAsked,
  useCall,
  useDialogCall,
  useFieldProblem,
  useListActions,
  useTeamList,
} from './admin-kit';
import { dayText, refusalOf } from './format';

const newestFirst = (a: SetupLink, b: SetupLink) => b.createdAt.localeCompare(a.createdAt);

/**
 * The Single sign-on screen's part for the team's owners: send the company's IT contact a setup link
 * (docs/decisions/setup-links.md), see the links sent and what became of them, and revoke one. Shown
 * only to an owner who is signed in — never on the IT contact's own page, nor to an admin.
 */
export function OwnerSetupLinks() {
  const signedIn = useSignedInCalls();
  const call = useCall();
  const [owner, setOwner] = useState(false);
  useEffect(() => {
    if (!signedIn) return;
    const stop = new AbortController();
    call((ctx) => getPermissions({ ...ctx, signal: stop.signal })).then(
      (permissions) => setOwner(Boolean(permissions.OWNER)),
      () => undefined,
    );
    return () => stop.abort();
  }, [signedIn, call]);
  return owner ? <SetupLinks /> : null;
}

function SetupLinks() {
  const { t } = useTranslation();
  const { language } = useElement();
  const links = useTeamList(listSetupLinks, (link) => link.id, newestFirst);
  const [sending, setSending] = useState(false);
  const { asked: revoking, open, ask, close } = useAsked<SetupLink>();
  const sendButton = useRef<HTMLButtonElement>(null);
  const { act } = useListActions(links);

  return (
    <TeamListPanel
      name="setup-links"
      list={links}
      title={t('setupLinks.title')}
      intro={t('setupLinks.intro')}
      empty={t('setupLinks.none')}
      actionLabel={t('setupLinks.send.open')}
      onAction={() => setSending(true)}
      buttonRef={sendButton}
      listClass="invites"
      row={(link) => (
        <li key={link.id}>
          <span className="invite-email">{link.email}</span>
          <span className={link.state === 'pending' || link.state === 'used' ? 'hint' : 'field-error'}>
            {stateText(link, language, t)}
          </span>
          <span className="invite-actions">
            {link.state === 'pending' || link.state === 'used' ? (
              <button
                type="button"
                className="button secondary small"
                part="button"
                aria-label={t('setupLinks.revoke.action', { email: link.email })}
                onClick={() => ask(link)}
              >
                {t('setupLinks.revoke.open')}
              </button>
            ) : null}
          </span>
        </li>
      )}
    >
      <FormDialog open={sending} title={t('setupLinks.send.title')} onClose={() => setSending(false)}>
        {(busy, setBusy) => (
          <SendForm busy={busy} setBusy={setBusy} onSent={links.put} onClose={() => setSending(false)} />
        )}
      </FormDialog>
      {revoking ? (
        <Confirm
          open={open}
          title={t('setupLinks.revoke.title')}
          text={t('setupLinks.revoke.text', { email: revoking.email })}
          action={t('setupLinks.revoke.confirm')}
          onConfirm={() =>
            act(
              (ctx) => revokeSetupLink(ctx, revoking.id),
              () => {
                links.put({ ...revoking, state: 'revoked', revokedAt: new Date().toISOString() });
                notify(['setupLinks.revoke.done', { email: revoking.email }]);
              },
            )
          }
          onClose={close}
          returnFocus={() => sendButton.current}
        />
      ) : null}
    </TeamListPanel>
  );
}

/** What became of a link, with its date. */
function stateText(link: SetupLink, language: string, t: TFunction): string {
  const day = (iso: string) => dayText(iso, language);
  if (link.state === 'revoked' && link.revokedAt)
    return t('setupLinks.state.revoked', { date: day(link.revokedAt) });
  if (link.state === 'expired') return t('setupLinks.state.expired', { date: day(link.expiresAt) });
  if (link.state === 'used' && link.openedAt)
    return t('setupLinks.state.used', { date: day(link.openedAt), until: day(link.expiresAt) });
  return t('setupLinks.state.pending', { date: day(link.expiresAt) });
}

/** The IT contact's address: checked as an address here, the server's refusal shown at the field. */
function SendForm(props: InDialogProps & { onSent(link: SetupLink): void }) {
  const { busy, onSent, onClose } = props;
  const { t } = useTranslation();
  const say = useSay();
  const send = useDialogCall(props);
  const [email, setEmail] = useState('');
  const { problem, setProblem, field } = useFieldProblem();
  const [formError, setFormError] = useState<Said | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const address = email.trim();
    const found: Said | null = !address
      ? ['setupLinks.send.required']
      : !/^[^\s@]+@[^\s@]+$/.test(address)
        ? ['setupLinks.send.invalidEmail']
        : null;
    setProblem(found === null ? null : { text: found });
    if (found) return;
    await send(
      (ctx) => sendSetupLink(ctx, address),
      (link) => {
        onSent(link);
        notify(['setupLinks.send.done', { email: link.email }]);
      },
      (error) => {
        if (refusalOf(error).field === 'email') setProblem({ text: ['setupLinks.send.invalidEmail'] });
        else setFormError(failure(error));
      },
    );
  }

  return (
    <DialogForm
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('setupLinks.send.submit')}
      error={say(formError)}
    >
      <p className="hint">{t('setupLinks.send.explain')}</p>
      <TextField
        label={t('setupLinks.send.email')}
        name="email"
        type="email"
        autoComplete="off"
        maxLength={LIMITS.email}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={say(problem?.text)}
        inputRef={field}
        autoFocus
      />
    </DialogForm>
  );
}
