import { listText } from '../../i18n/list';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Said } from '../../i18n/said';
import { noticesStore } from '../../state/notices';
import { useElement } from '../../ui/element-context';
import { Link } from '../../ui/router';
import { useScreenTitle } from '../../ui/screen-title';
import { captureTokenFragment } from './fragment';
import { decodePayload } from './jwt';
import { WithTextPart } from '../../i18n/parts';
import { Failed } from '../../ui/failed';
import { ScreenLoading } from '../../ui/spinner';

function TokenBox({
  label,
  hint,
  value,
  copyLabel,
  copied,
}: {
  label: string;
  hint: string;
  value: string;
  /** A whole sentence per token ('Copy access token'): a label glued into a sentence reads wrong in some languages. */
  copyLabel: string;
  copied: Said;
}) {
  const id = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      noticesStore.getState().show(copied, 'Success');
    } catch {
      noticesStore.getState().show(['token.copyFailed'], 'Failure');
    }
  }
  return (
    <div className="field token-box">
      <label htmlFor={id}>{label}</label>
      {/* The frame (border, padding) is the wrapper's: text scrolls under a textarea's own padding, where
          the line after the last whole one would show cut in half. */}
      <div className="token-text">
        <textarea
          id={id}
          dir="ltr"
          readOnly
          value={value}
          rows={5}
          aria-describedby={`${id}-hint`}
          spellCheck={false}
        />
      </div>
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
      <button type="button" className="button secondary small" part="button" onClick={() => void copy()}>
        {copyLabel}
      </button>
    </div>
  );
}

/**
 * The token success page (spec §2, design §3): the tokens were taken from the fragment into memory, and
 * the fragment removed, when the element started (./fragment); two read-only boxes with copy actions, the
 * token's scopes and expiry (decoded for display only), a note that tokens expire, and a way back to the
 * form (its choice of policies is remembered) for new ones.
 */
export default function TokenSuccess() {
  return (
    <WithTextPart part="account" waiting={<ScreenLoading />} failed={<Failed />}>
      <TokensShown />
    </WithTextPart>
  );
}

function TokensShown() {
  const { t } = useTranslation();
  const { language } = useElement();
  const [tokens] = useState(captureTokenFragment);
  const screenTitle = useScreenTitle();

  if (!tokens) {
    return (
      <section className="panel" part="card" aria-labelledby={screenTitle ?? undefined}>
        <p>{t('token.none')}</p>
        <Link to="/manage/dev" className="button" part="button">
          {t('token.generate')}
        </Link>
      </section>
    );
  }
  const payload = decodePayload(tokens.access);
  const scopes = typeof payload?.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
  const expires = typeof payload?.exp === 'number' ? new Date(payload.exp * 1000) : null;
  return (
    // In the manage area its heading names the panel; on its own (<acct-token>) the panel has a title.
    <section className="panel" part="card" aria-labelledby={screenTitle ?? 'tokens-title'}>
      {screenTitle ? null : (
        <h2 className="panel-title" id="tokens-title">
          {t('token.successTitle')}
        </h2>
      )}
      <dl className="facts">
        <div>
          <dt>{t('token.scopes')}</dt>
          <dd>{scopes.length ? listText(scopes, language) : '—'}</dd>
        </div>
        {expires ? (
          <div>
            <dt>{t('token.expires')}</dt>
            <dd>
              <time dateTime={expires.toISOString()}>
                {new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
                  expires,
                )}
              </time>
            </dd>
          </div>
        ) : null}
      </dl>
      <TokenBox
        label={t('token.accessToken')}
        hint={t('token.accessHint')}
        value={tokens.access}
        copyLabel={t('token.copyAccess')}
        copied={['token.accessCopied']}
      />
      <TokenBox
        label={t('token.idToken')}
        hint={t('token.idHint')}
        value={tokens.id}
        copyLabel={t('token.copyId')}
        copied={['token.idCopied']}
      />
      <p className="hint">{t('token.expiryNote')}</p>
      <Link to="/manage/dev" className="button" part="button">
        {t('token.generateAnother')}
      </Link>
    </section>
  );
}
