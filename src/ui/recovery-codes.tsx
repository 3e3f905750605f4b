import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from './alert';
import { useElement } from './element-context';
import '../styles/screens-sheet';

/**
 * Recovery codes, shown once: the list, copy and download as a text file. Focus goes to the list's
 * heading when it appears, so a screen reader reads the warning first. Its texts are in the 'security'
 * part.
 */
export function RecoveryCodes({
  codes,
  account,
  team,
}: {
  codes: readonly string[];
  account: string;
  /** The team's name as its members know it. */
  team: string;
}) {
  const { t } = useTranslation();
  const { issuer, language } = useElement();
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  // A file found months later must say which account, team and site the codes open, and from when
  // (newer codes replace older ones).
  const [made] = useState(() => new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(new Date()));
  const text = [
    t('recoveryCodes.fileTitle', { account }),
    t('recoveryCodes.fileTeam', { team }),
    t('recoveryCodes.fileSite', { site: new URL(issuer).host }),
    t('recoveryCodes.fileDate', { date: made }),
    '',
    ...codes,
    '',
  ].join('\n');

  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = t('recoveryCodes.fileName');
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <div className="stack">
      <h2 className="panel-title" ref={heading} tabIndex={-1}>
        {t('recoveryCodes.title')}
      </h2>
      <Alert tone="info">{t('recoveryCodes.once')}</Alert>
      <ol className="recovery-codes checks" aria-label={t('recoveryCodes.title')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="dialog-actions">
        <button type="button" className="button secondary" part="button" onClick={() => void copy()}>
          {t('recoveryCodes.copy')}
        </button>
        <button type="button" className="button secondary" part="button" onClick={download}>
          {t('recoveryCodes.download')}
        </button>
      </div>
      <p role="status">
        {copied ? t(copied === 'yes' ? 'recoveryCodes.copied' : 'recoveryCodes.copyFailed') : null}
      </p>
    </div>
  );
}
