import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchLanguage, type Language } from '../../contract/languages';
import { useTextPart } from '../../i18n/parts';
import strengthCss from '../../styles/strength.css';
import { addRules } from '../../styles/sheet';
import type { Estimate, Strength } from './password-strength';

addRules(strengthCss);

/** Typing pauses this long before a password is estimated again: no estimate runs per keystroke. */
const SETTLE_MS = 150;

/**
 * How hard the new password is to guess (zxcvbn-ts), under a new-password field: a visible label, a
 * four-part bar, and the reason in words in a polite live region. Its own chunk, loaded only where a
 * new password is chosen; the estimator and its dictionaries are a further chunk, loaded once something
 * is typed. `userInputs` (the address, the name) count as easy to guess. Advice only: the server's
 * rules and breach check decide.
 */
export default function StrengthMeter({ password, userInputs }: { password: string; userInputs?: string[] }) {
  const { t, i18n } = useTranslation();
  const language: Language = matchLanguage(i18n.language) ?? 'en';
  const texts = useTextPart('strength');
  const labelId = useId();
  const [estimator, setEstimator] = useState<{ language: Language; estimate: Estimate } | null>(null);
  const [strength, setStrength] = useState<Strength | null>(null);
  const typed = password !== '';

  useEffect(() => {
    if (!typed || estimator?.language === language) return;
    let live = true;
    void import('./password-strength')
      .then((module) => module.estimatorFor(language))
      .then(
        (estimate) => live && setEstimator({ language, estimate }),
        // Without its dictionaries the meter stays silent: it only advises.
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [typed, language, estimator]);

  const estimate = estimator?.estimate;
  // By value: a caller may pass a new array at every render.
  const inputs = (userInputs ?? []).filter(Boolean).join('\n');
  useEffect(() => {
    if (!estimate || !typed) return;
    const timer = setTimeout(
      () => setStrength(estimate(password, inputs ? inputs.split('\n') : [])),
      SETTLE_MS,
    );
    return () => clearTimeout(timer);
  }, [estimate, password, typed, inputs]);

  if (texts !== 'ready') return null;
  const shown = typed ? strength : null;
  const reason = !shown
    ? ''
    : shown.warning
      ? t(`strength.warnings.${shown.warning}`)
      : shown.score < 3
        ? t('strength.addWords')
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
        {!shown
          ? ''
          : reason
            ? t('strength.withReason', { level: t(`strength.scores.${shown.score}`), reason })
            : t(`strength.scores.${shown.score}`)}
      </p>
    </div>
  );
}
