import { useCallback, useState } from 'react';
import { WithTextPart } from '../../i18n/parts';
import { ScreenLoading } from '../../ui/spinner';
import { Failed } from '../../ui/failed';
import { PasskeysPanel } from './passkeys-panel';
import { TwoStepPanels } from './two-step-panels';

function SecurityScreen() {
  // Each change of the passkeys: the two-step panel reads its status again (it counts them).
  const [passkeysRound, setPasskeysRound] = useState(0);
  const changed = useCallback(() => setPasskeysRound((n) => n + 1), []);
  return (
    <>
      <PasskeysPanel changed={changed} />
      <TwoStepPanels passkeysRound={passkeysRound} />
    </>
  );
}

/**
 * `/manage/security`: the signed-in user's passkeys (add, rename, remove), the authenticator app of
 * two-step sign-in (set up, turn off) and its recovery codes (how many are left, new ones).
 */
export default function SecurityPage() {
  return (
    <WithTextPart part="security" waiting={<ScreenLoading />} failed={<Failed />}>
      <SecurityScreen />
    </WithTextPart>
  );
}
