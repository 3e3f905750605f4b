import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resendInvitation, revokeInvitation, type Invitation } from '../../api/team';
import { noticesStore } from '../../state/notices';
import { sessionStore } from '../../state/session';
import { QuestionDialog } from '../../ui/confirm-dialog';
import { useElement } from '../../ui/element-context';
import { invitationStatus, refusalOf } from './format';

/**
 * The pending invitations, each with its status read from its timestamps, Resend (a new link, seven
 * more days) and the close button, which revokes it after a question (the link stops working).
 */
export function InvitationList({
  invitations,
  now,
  onChanged,
  focusAfterLast,
}: {
  invitations: Invitation[];
  now: number;
  onChanged(): void;
  /** Where focus goes when the revoked invitation was the last one (its row is gone). */
  focusAfterLast(): HTMLElement | null;
}) {
  const { t } = useTranslation();
  const { language } = useElement();
  const [busy, setBusy] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [question, setQuestion] = useState<Invitation | null>(null);
  const list = useRef<HTMLUListElement>(null);
  // The row of the invitation being revoked: once it is gone, focus goes to the row now in its place.
  const revoked = useRef<{ id: string; index: number } | null>(null);

  const failed = (error: unknown) => {
    const { status, code } = refusalOf(error);
    noticesStore
      .getState()
      .show(
        status === 404
          ? ['team.gone']
          : code === 'seatLimit'
            ? ['team.inviteDialog.errors.seatLimit']
            : ['common.failed'],
        'Failure',
      );
  };

  async function resend(invitation: Invitation) {
    setBusy(invitation.id);
    try {
      await sessionStore.getState().authorized((ctx) => resendInvitation(ctx, invitation.id), language);
      noticesStore.getState().show(['team.resent', { email: invitation.email }], 'Success');
    } catch (error) {
      failed(error);
    }
    setBusy(null);
    onChanged();
  }

  async function revoke(invitation: Invitation) {
    setBusy(invitation.id);
    revoked.current = { id: invitation.id, index: invitations.findIndex((i) => i.id === invitation.id) };
    try {
      await sessionStore.getState().authorized((ctx) => revokeInvitation(ctx, invitation.id), language);
      noticesStore.getState().show(['team.revoke.done', { email: invitation.email }], 'Success');
    } catch (error) {
      failed(error);
    }
    setBusy(null);
    setAsking(false);
    onChanged();
  }

  // After a revoke the row is gone: focus goes to the Resend of the row now in its place (or the one
  // before it), or to the Invite button when none is left.
  const afterRevoke = () => {
    const index = revoked.current?.index ?? 0;
    const rows = list.current?.querySelectorAll<HTMLElement>('li .button') ?? [];
    return rows[index] ?? rows[index - 1] ?? focusAfterLast();
  };

  useEffect(() => {
    const gone = revoked.current;
    if (!gone || invitations.some((i) => i.id === gone.id)) return;
    afterRevoke()?.focus();
    revoked.current = null;
  });

  return (
    <>
      {invitations.length === 0 ? <p className="hint">{t('team.noInvites')}</p> : null}
      <ul className="invites" ref={list} hidden={invitations.length === 0}>
        {invitations.map((invitation) => {
          const status = invitationStatus(invitation, now, t, language);
          return (
            <li key={invitation.id}>
              <span className="invite-email">{invitation.email}</span>
              <span className={status.urgent ? 'field-error' : 'hint'}>
                <time dateTime={status.at}>{status.text}</time>
              </span>
              <span className="invite-actions">
                <button
                  type="button"
                  className="button secondary small"
                  part="button"
                  aria-label={t('team.resendLabel', { email: invitation.email })}
                  disabled={busy !== null}
                  onClick={() => void resend(invitation)}
                >
                  {t('team.resend')}
                </button>
                <button
                  type="button"
                  className="icon-button subtle"
                  aria-label={t('team.removeInvite', { email: invitation.email })}
                  disabled={busy !== null}
                  onClick={() => {
                    revoked.current = null;
                    setQuestion(invitation);
                    setAsking(true);
                  }}
                >
                  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                    <path
                      fill="currentColor"
                      d="M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6z"
                    />
                  </svg>
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      {question ? (
        <QuestionDialog
          open={asking}
          title={t('team.revoke.title')}
          text={t('team.revoke.text', { email: question.email })}
          action={t('team.revoke.confirm')}
          busy={busy !== null}
          returnFocus={afterRevoke}
          onConfirm={() => void revoke(question)}
          onClose={() => setAsking(false)}
        />
      ) : null}
    </>
  );
}
