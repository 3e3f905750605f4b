import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { estimateStrength, type Strength } from '../../api/password-strength';
import { useTextPart } from '../../i18n/parts';
import strengthCss from '../../styles/strength.css';
import { addRules } from '../../styles/sheet';
import { useElement } from '../element-context';

addRules(strengthCss);

/** Typing pauses this long before a password is estimated again: no estimate is asked per keystroke. */
const SETTLE_MS = 150;
/**
 * An estimate not back after this long is said to be unavailable rather than leave the last password's
 * on screen; the request goes on, and a late answer still shows. A busy server's first estimate can take
 * several seconds, so this is patience, not a deadline.
 */
const ANSWER_MS = 6000;

/**
 * How hard the new password is to guess, under a new-password field: a visible label, a four-part bar,
 * and the reason in words in a polite live region. Its own chunk, loaded only where a new password is
 * chosen. The identity server estimates (zxcvbn and its dictionaries, which the page does not
 * download), once typing pauses; `userInputs` (the address, the name) count as easy to guess. Advice
 * only: the server's rules and breach check decide. Without an answer (offline, busy, or none in a few
 * seconds) it says it cannot check now, rather than leave the last password's estimate under the new one.
 */
export default function StrengthMeter({ password, userInputs }: { password: string; userInputs?: string[] }) {
  const { t } = useTranslation();
  const { issuer, language } = useElement();
  const texts = useTextPart('strength');
  const labelId = useId();
  // `strength` null: the server gave no estimate of that password.
  const [strength, setStrength] = useState<{ of: string; strength: Strength | null } | null>(null);

  // By value: a caller may pass a new array at every render.
  const inputs = (userInputs ?? []).filter(Boolean).join('\n');
  useEffect(() => {
    if (!password) return;
    const controller = new AbortController();
    let late: ReturnType<typeof setTimeout> | undefined;
    const unavailable = () => setStrength({ of: password, strength: null });
    const timer = setTimeout(() => {
      const body = { password, userInputs: inputs ? inputs.split('\n').slice(0, 5) : [] };
      late = setTimeout(unavailable, ANSWER_MS);
      estimateStrength({ issuer, language, signal: controller.signal }, body)
        .then(
          (answer) => setStrength({ of: password, strength: answer }),
          // Offline, busy or refused; an aborted request is only a newer password being typed.
          () => {
            if (!controller.signal.aborted) unavailable();
          },
        )
        .finally(() => clearTimeout(late));
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      clearTimeout(late);
      controller.abort();
    };
  }, [issuer, language, password, inputs]);

  if (texts !== 'ready') return null;
  // The last answer stays while the next is asked for; a cleared field shows none.
  const shown = password ? strength?.strength : null;
  const reason = !shown
    ? ''
    : shown.warning
      ? t(`strength.warnings.${shown.warning}`)
      : shown.score < 3
        ? t('strength.addWords')
        : '';
  const said = shown
    ? reason
      ? t('strength.withReason', { level: t(`strength.scores.${shown.score}`), reason })
      : t(`strength.scores.${shown.score}`)
    : password && strength?.strength === null
      ? t('strength.unavailable')
      : '';
  return (
    <div className="strength-meter" role="group" aria-labelledby={labelId} data-score={shown?.score ?? ''}>
      <div className="strength-head">
        <span className="strength-label" id={labelId}>
          {t('strength.label')}
        </span>
        <span className="strength-bar" aria-hidden="true">
          <span />
          <span />
          <span />
          <span />
        </span>
      </div>
      <p className="strength-text" aria-live="polite">
        {said}
      </p>
    </div>
  );
}
