import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LimitBar } from '../../ui/limit-bar';

/** Spec §2: the team-management screen shows only this static sample data. */
const SAMPLE = {
  users: { used: 90, limit: 100 },
  storage: { used: 90, limit: 100 },
  invites: [
    { email: 'sam.taylor@example.com', status: 'sent', hours: 2 },
    { email: 'alex.morgan@example.com', status: 'expires', days: 4 },
    { email: 'jo.lee@example.com', status: 'expiresTomorrow' },
  ],
  manager: { name: 'Jordan Avery', email: 'jordan.avery@example.com', phone: '+44 20 7946 0018' },
} as const;

type LoginOption = 'credentials' | 'google' | 'microsoft' | 'apple';

function Toggle({ label, on, onChange }: { label: string; on: boolean; onChange(on: boolean): void }) {
  return (
    <label className="toggle">
      <span>{label}</span>
      <button type="button" role="switch" aria-checked={on} onClick={() => onChange(!on)} className="switch">
        <span aria-hidden="true" />
      </button>
    </label>
  );
}

/**
 * Manage team (spec §2): team management with the user- and storage-limit bars, pending invites, login
 * option toggles and the support panel — all static sample data; nothing here is saved.
 */
export default function TeamPage() {
  const { t } = useTranslation();
  const [options, setOptions] = useState<Record<LoginOption, boolean>>({
    credentials: true,
    google: true,
    microsoft: false,
    apple: false,
  });
  const [invites, setInvites] = useState(SAMPLE.invites.map((invite) => invite.email));

  const usersPercent = Math.round((SAMPLE.users.used / SAMPLE.users.limit) * 100);
  const storagePercent = Math.round((SAMPLE.storage.used / SAMPLE.storage.limit) * 100);
  return (
    <>
      <section className="panel" part="card" aria-labelledby="team-title">
        <h2 className="panel-title" id="team-title">
          {t('team.title')}
        </h2>
        <p className="hint">{t('team.sample')}</p>
        <LimitBar
          value={usersPercent}
          label={t('team.usersLabel')}
          text={t('team.users', { used: SAMPLE.users.used, limit: SAMPLE.users.limit })}
        />
        <button type="button" className="button secondary small" part="button">
          {t('team.manageLimit')}
        </button>
        <LimitBar
          value={storagePercent}
          label={t('team.storageLabel')}
          text={t('team.storage', { used: SAMPLE.storage.used, limit: SAMPLE.storage.limit })}
        />
      </section>
      <section className="panel" part="card" aria-labelledby="invites-title">
        <h2 className="panel-title" id="invites-title">
          {t('team.invites')}
        </h2>
        <ul className="invites">
          {SAMPLE.invites
            .filter((invite) => invites.includes(invite.email))
            .map((invite) => {
              const status =
                invite.status === 'sent'
                  ? t('team.sent', { count: invite.hours })
                  : invite.status === 'expires'
                    ? t('team.expires', { count: invite.days })
                    : t('team.expiresTomorrow');
              return (
                <li key={invite.email}>
                  <span className="invite-email">{invite.email}</span>
                  <span className={invite.status === 'sent' ? 'hint' : 'field-error'}>{status}</span>
                  <span className="invite-actions">
                    <button type="button" className="button secondary small" part="button">
                      {t('team.resend')}
                    </button>
                    <button
                      type="button"
                      className="icon-button subtle"
                      aria-label={t('team.removeInvite', { email: invite.email })}
                      onClick={() => setInvites(invites.filter((email) => email !== invite.email))}
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
      </section>
      <section className="panel" part="card" aria-labelledby="options-title">
        <h2 className="panel-title" id="options-title">
          {t('team.loginOptions')}
        </h2>
        <div className="toggles">
          {(['credentials', 'google', 'microsoft', 'apple'] as const).map((option) => (
            <Toggle
              key={option}
              label={t(`team.options.${option}`)}
              on={options[option]}
              onChange={(on) => setOptions({ ...options, [option]: on })}
            />
          ))}
        </div>
      </section>
      <section className="panel" part="card" aria-labelledby="support-title">
        <h2 className="panel-title" id="support-title">
          {t('team.support')}
        </h2>
        <dl className="facts">
          <div>
            <dt>{t('team.manager')}</dt>
            <dd>{SAMPLE.manager.name}</dd>
          </div>
          <div>
            <dt>{t('team.managerEmail')}</dt>
            <dd>
              <a href={`mailto:${SAMPLE.manager.email}`}>{SAMPLE.manager.email}</a>
            </dd>
          </div>
          <div>
            <dt>{t('team.phone')}</dt>
            <dd>
              <a href={`tel:${SAMPLE.manager.phone.replace(/\s/g, '')}`}>{SAMPLE.manager.phone}</a>
            </dd>
          </div>
        </dl>
      </section>
    </>
  );
}
