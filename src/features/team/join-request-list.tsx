import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Said } from '../../i18n/said';
import { approveJoinRequest, declineJoinRequest, type JoinRequest } from '../../api/join-requests';
import { noticesStore } from '../../state/notices';
import { sessionStore } from '../../state/session';
import { QuestionDialog } from '../../ui/confirm-dialog';
import { useElement } from '../../ui/element-context';
import { timeAgo } from '../../ui/time';
import { refusalOf } from './format';

/**
 * The requests to join from the team's domains, oldest first: Approve mails the person an invitation
 * (a seat taken; with none free the seat limit is offered), Decline — after a question — a neutral note.
 */
export function JoinRequestList({
  requests,
  now,
  onChanged,
  onSeatLimit,
}: {
  requests: JoinRequest[];
  now: number;
  onChanged(): void;
  /** No seat is free for the approval. */
  onSeatLimit(): void;
}) {
  const { t } = useTranslation();
  const { language } = useElement();
  const [busy, setBusy] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [question, setQuestion] = useState<JoinRequest | null>(null);

  const failed = (error: unknown) => {
    const { status, code } = refusalOf(error);
    if (code === 'seatLimit') return onSeatLimit();
    const text: Said =
      status === 404
        ? ['team.gone']
        : code === 'alreadyMember' || code === 'alreadyInvited'
          ? [`team.joinRequests.${code}`]
          : ['common.failed'];
    noticesStore.getState().show(text, 'Failure');
  };

  async function decide(request: JoinRequest, approve: boolean) {
    setBusy(request.id);
    try {
      await sessionStore
        .getState()
        .authorized((ctx) => (approve ? approveJoinRequest : declineJoinRequest)(ctx, request.id), language);
      const done = approve ? 'team.joinRequests.approved' : 'team.joinRequests.declined';
      noticesStore.getState().show([done, { name: request.name, email: request.email }], 'Success');
    } catch (error) {
      failed(error);
    }
    setBusy(null);
    setAsking(false);
    onChanged();
  }

  return (
    <>
      {requests.length === 0 ? <p className="hint">{t('team.joinRequests.none')}</p> : null}
      <ul className="invites" hidden={requests.length === 0}>
        {requests.map((request) => (
          <li key={request.id}>
            <span className="invite-email">
              {request.name} <span className="hint">{request.email}</span>
            </span>
            <span className="hint">
              <time dateTime={request.createdAt}>
                {t('team.joinRequests.asked', { time: timeAgo(request.createdAt, now, language) })}
              </time>
            </span>
            <span className="invite-actions">
              <button
                type="button"
                className="button small"
                part="button"
                aria-label={t('team.joinRequests.approveLabel', { name: request.name, email: request.email })}
                disabled={busy !== null}
                onClick={() => void decide(request, true)}
              >
                {t('team.joinRequests.approve')}
              </button>
              <button
                type="button"
                className="button secondary small"
                part="button"
                aria-label={t('team.joinRequests.declineLabel', { name: request.name, email: request.email })}
                disabled={busy !== null}
                onClick={() => {
                  setQuestion(request);
                  setAsking(true);
                }}
              >
                {t('team.joinRequests.decline')}
              </button>
            </span>
          </li>
        ))}
      </ul>
      {question ? (
        <QuestionDialog
          open={asking}
          title={t('team.joinRequests.declineTitle')}
          text={t('team.joinRequests.declineText', { name: question.name, email: question.email })}
          action={t('team.joinRequests.decline')}
          busy={busy !== null}
          onConfirm={() => void decide(question, false)}
          onClose={() => setAsking(false)}
        />
      ) : null}
    </>
  );
}
