import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { generateDeviceCode, type DeviceCode } from '../../api/endpoints';
import { noticesStore } from '../../state/notices';
import { sessionStore } from '../../state/session';
import { useElement } from '../../ui/element-context';
import { useScreenTitle } from '../../ui/screen-title';
import { ScreenLoading, Spinner } from '../../ui/spinner';
import { Alert } from '../../ui/alert';
import { WithTextPart } from '../../i18n/parts';

/** Spec §9: QR codes are 400 px wide, error correction M, version 1–40. */
export const QR_SIZE = 400;
export const QR_LEVEL = 'M';

/** A QR version within 1–40 (spec §5). */
export function clampVersion(version: number): number {
  return Math.min(40, Math.max(1, Math.round(Number.isFinite(version) ? version : 1)));
}

/** The QR payload: the device authorization as JSON. Empty data is refused (spec §5). */
export function qrPayload(code: DeviceCode | null): string {
  const data = code ? JSON.stringify(code) : '';
  if (!data || data === '{}') throw new Error('QR data must not be empty');
  return data;
}

/**
 * QR code login (spec §2): 'Generate QR code' asks for a device authorization and shows it as a QR code
 * for the mobile app to scan; a failure shows 'unable to generate QR code' and takes the previous code
 * away, so that nothing on screen looks like a valid code. A lazily loaded chunk of the manage area,
 * whose heading names the panel; its texts are in the 'account' part.
 */
export default function QrSection() {
  const { t } = useTranslation();
  return (
    <WithTextPart
      part="account"
      waiting={<ScreenLoading />}
      failed={<Alert tone="error">{t('common.failed')}</Alert>}
    >
      <QrPanel />
    </WithTextPart>
  );
}

function QrPanel() {
  const { t } = useTranslation();
  const { language } = useElement();
  const screenTitle = useScreenTitle();
  const [code, setCode] = useState<DeviceCode | null>(null);
  const [busy, setBusy] = useState(false);

  async function generate() {
    setBusy(true);
    try {
      const answer = await sessionStore.getState().authorized((ctx) => generateDeviceCode(ctx), language);
      qrPayload(answer);
      setCode(answer);
    } catch {
      setCode(null);
      noticesStore.getState().show(['qr.failed'], 'Failure');
    }
    setBusy(false);
  }

  return (
    <section className="panel" part="card" aria-labelledby={screenTitle ?? undefined}>
      <p>{t('qr.intro')}</p>
      <button type="button" className="button" part="button" onClick={() => void generate()} disabled={busy}>
        {t('qr.generate')}
      </button>
      {busy ? (
        <div className="loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      ) : null}
      {code ? (
        <figure className="qr">
          <QRCodeSVG
            value={qrPayload(code)}
            size={QR_SIZE}
            level={QR_LEVEL}
            minVersion={clampVersion(1)}
            marginSize={4}
            role="img"
            aria-label={t('qr.label')}
            className="qr-code"
          />
          <figcaption>
            {t('qr.caption', { code: code.user_code, count: Math.round(code.expires_in / 60) })}
          </figcaption>
        </figure>
      ) : null}
    </section>
  );
}
