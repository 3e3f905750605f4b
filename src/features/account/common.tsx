import { useTranslation } from 'react-i18next';

export { refusalOf } from '../../api/refusal';

/** 'Chrome on Windows', with a general word for what the server could not tell. */
export function useDeviceName() {
  const { t } = useTranslation();
  return (agent: { browser?: string | null; os?: string | null }) =>
    t('sessions.device', {
      browser: agent.browser ?? t('sessions.unknownBrowser'),
      os: agent.os ?? t('sessions.unknownOs'),
    });
}
