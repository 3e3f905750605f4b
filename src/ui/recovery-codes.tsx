import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from './alert';

/**
 * Recovery codes, shown once: the list, copy and download as a text file. Focus goes to the list's
 * heading when it appears, so a screen reader reads the warning first. Its texts are in the 'security'
 * part.
 */
export function RecoveryCodes({ codes, account }: { codes: readonly string[]; account: string }) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const text = `${t('recoveryCodes.fileTitle', { account })}\n\n${codes.join('\n')}\n`;

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
