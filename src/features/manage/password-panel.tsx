import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasswordOptions } from '../../api/endpoints';
import { useElement } from '../../ui/element-context';
import { Spinner } from '../../ui/spinner';
import { PasswordDialog } from './password-dialog';

/**
 * The password panel (spec §2): a spinner while loading; with a password the last-changed date, a masked
 * value, the rules hint and Change password; without one, Set password; when loading failed, Try again.
 */
export function PasswordPanel({
  options,
  reload,
}: {
  options: PasswordOptions | null | 'failed';
  reload(): void;
}) {
  const { t } = useTranslation();
  const { language } = useElement();
  // The dialog keeps the kind it was opened as (set or change) while it closes: saving reloads the
  // options, which would otherwise relabel it during its closing animation.
  const [dialog, setDialog] = useState({ open: false, hasPassword: false });
  const openDialog = (hasPassword: boolean) => setDialog({ open: true, hasPassword });
  const title = useRef<HTMLHeadingElement>(null);
  // The button goes away while the options load again: focus stays in the panel, on its title.
  const retry = () => {
    title.current?.focus();
    reload();
  };

  return (
    <section className="panel" part="card" aria-labelledby="password-title" aria-busy={options === null}>
      <h2 className="panel-title" id="password-title" ref={title} tabIndex={-1}>
        {t('manage.password.title')}
      </h2>
      {options === null ? (
        <div className="loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      ) : options === 'failed' ? (
        <>
          <p role="alert">{t('common.failed')}</p>
          <button type="button" className="button secondary" part="button" onClick={retry}>
            {t('common.retry')}
          </button>
        </>
      ) : options.hasPassword ? (
        <>
          <dl className="facts">
            <div>
              <dt>{t('manage.password.title')}</dt>
              <dd>
                <span aria-label={t('manage.password.masked')}>••••••••</span>
              </dd>
            </div>
            {options.password_changed ? (
              <div>
                <dt>{t('manage.password.changed')}</dt>
                <dd>
                  <time dateTime={options.password_changed}>
                    {new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(
                      new Date(options.password_changed),
                    )}
                  </time>
                </dd>
              </div>
            ) : null}
          </dl>
          <p className="hint">{t('common.passwordRules')}</p>
          <button type="button" className="button" part="button" onClick={() => openDialog(true)}>
            {t('manage.password.change')}
          </button>
        </>
      ) : (
        <>
          <p>{t('manage.password.none')}</p>
          <button type="button" className="button" part="button" onClick={() => openDialog(false)}>
            {t('manage.password.set')}
          </button>
        </>
      )}
      {options && options !== 'failed' ? (
        <PasswordDialog
          open={dialog.open}
          hasPassword={dialog.hasPassword}
          onClose={() => setDialog((current) => ({ ...current, open: false }))}
          onSaved={reload}
        />
      ) : null}
    </section>
  );
}
