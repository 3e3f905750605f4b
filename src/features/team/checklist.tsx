import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissChecklist } from '../../api/sign-up';
import { noticesStore } from '../../state/notices';
import { Link } from '../../ui/router';
import { useCall } from '../../ui/use-call';

/**
 * The first steps of a team a sign-up just made, for its admins: invite people, choose how members
 * sign in, verify the company's domain — each a way to the place it is done. Put away for good by
 * the server (`DELETE /api/team/checklist`), so it stays away on every browser.
 */
export function Checklist({
  onInvite,
  onMethods,
  onDismissed,
}: {
  onInvite(): void;
  onMethods(): void;
  onDismissed(): void;
}) {
  const { t } = useTranslation();
  const call = useCall();
  const [busy, setBusy] = useState(false);

  async function dismiss() {
    setBusy(true);
    try {
      await call(dismissChecklist);
      onDismissed();
    } catch {
      setBusy(false);
      noticesStore.getState().show(['common.failed'], 'Failure');
    }
  }

  return (
    <section className="panel" part="card" aria-labelledby="checklist-title">
      <div className="panel-head">
        <h2 className="panel-title" id="checklist-title">
          {t('team.checklist.title')}
        </h2>
        <button
          type="button"
          className="button secondary small"
          part="button"
          disabled={busy}
          onClick={() => void dismiss()}
        >
          {t('team.checklist.dismiss')}
        </button>
      </div>
      <p className="hint">{t('team.checklist.intro')}</p>
      <ol className="stack">
        <li>
          <button type="button" className="link" onClick={onInvite}>
            {t('team.checklist.invite')}
          </button>
        </li>
        <li>
          <button type="button" className="link" onClick={onMethods}>
            {t('team.checklist.methods')}
          </button>
        </li>
        <li>
          <Link to="/manage/team/domains">{t('team.checklist.domain')}</Link>
        </li>
      </ol>
    </section>
  );
}
