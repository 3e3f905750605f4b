import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';

/** The key in groups of four, as authenticator apps show and ask for it. */
export function groupedKey(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * A new authenticator-app key: the QR code of its `otpauth://` address to scan, and the key as text for
 * an app that cannot scan. Its texts are in the 'security' part.
 */
export function TotpKey({ uri, secret }: { uri: string; secret: string }) {
  const { t } = useTranslation();
  return (
    <div className="totp-key stack tight">
      <div>{t('totpKey.scan')}</div>
      <QRCodeSVG value={uri} size={176} level="M" marginSize={2} title={t('totpKey.qrLabel')} />
      <div>
        {t('totpKey.manual')} <code className="secret">{groupedKey(secret)}</code>
      </div>
    </div>
  );
}
