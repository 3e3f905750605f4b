/** Spec §4/§9: positive below 70, warning from 70 to below 90, negative at 90 and above. */
export type LimitTone = 'positive' | 'warning' | 'negative';

export function limitTone(value: number): LimitTone {
  if (value >= 90) return 'negative';
  if (value >= 70) return 'warning';
  return 'positive';
}

/** The limit bar (spec §3): a 0–100 percent value as a progress bar, coloured by its tone. */
export function LimitBar({ value, label, text }: { value: number; label: string; text: string }) {
  const clamped = Math.min(100, Math.max(0, Number.isFinite(value) ? value : 0));
  const tone = limitTone(clamped);
  return (
    <div className="limit">
      <div
        className={`limit-bar limit-${tone}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={clamped}
        aria-valuetext={text}
      >
        <span style={{ width: `${clamped}%` }} />
      </div>
      <p className="limit-text">{text}</p>
    </div>
  );
}
