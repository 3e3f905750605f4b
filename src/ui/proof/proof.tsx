import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiContext } from '../../api/client';
import type { Proof } from '../../contract/schemas/challenge';
import { useTextPart } from '../../i18n/parts';
import { useElement } from '../element-context';

/** How long a solve may take before the screen says that it is still at it. */
export const SLOW_MS = 3000;

export type ProofSolver = (ctx: ApiContext, signal: AbortSignal) => Promise<Proof>;

/** The solver and its worker: a chunk of their own, asked for when a challenge is. */
const solveInWorker: ProofSolver = (ctx, signal) =>
  import('./solve').then((module) => module.solveProof(ctx, signal));

export interface ProofOfWorkProps {
  /** A solved challenge, for the request that requires it (each is accepted once). */
  onSolved(proof: Proof): void;
  /** The solve failed; the element shows why and a way to try again. */
  onFailed?(): void;
  /** What solves: the worker unless a test says otherwise. */
  solve?: ProofSolver;
}

/**
 * The proof-of-work check as a screen shows it: nothing while it works (most solves end unnoticed, while
 * the person types or the page signs in), a polite status once it takes long, and a clear message with a
 * retry when it fails. No widget, nothing to click; it starts when it first renders.
 */
export default function ProofOfWork({ onSolved, onFailed, solve = solveInWorker }: ProofOfWorkProps) {
  const { t } = useTranslation();
  const { issuer, language } = useElement();
  const texts = useTextPart('security');
  const [state, setState] = useState<'working' | 'slow' | 'failed'>('working');
  const [round, setRound] = useState(0);
  const solved = useEffectEvent((proof: Proof) => onSolved(proof));
  const failed = useEffectEvent(() => onFailed?.());

  useEffect(() => {
    const stop = new AbortController();
    const slow = setTimeout(() => setState((now) => (now === 'working' ? 'slow' : now)), SLOW_MS);
    solve({ issuer, language }, stop.signal).then(
      (proof) => {
        clearTimeout(slow);
        if (stop.signal.aborted) return;
        setState('working');
        solved(proof);
      },
      () => {
        clearTimeout(slow);
        if (stop.signal.aborted) return;
        setState('failed');
        failed();
      },
    );
    return () => {
      clearTimeout(slow);
      stop.abort();
    };
  }, [issuer, language, solve, round]);

  if (texts !== 'ready') return <div role="status" />;
  return (
    <>
      {/* Always there, so the text that comes into it is announced (politely: nothing is wrong). */}
      <div role="status" className="proof-status">
        {state === 'slow' ? <p className="alert alert-info">{t('proof.slow')}</p> : null}
      </div>
      {state === 'failed' ? (
        <div className="alert alert-error proof-failed" role="alert">
          <p>{t('proof.failed')}</p>
          <button
            className="button secondary small"
            type="button"
            onClick={() => {
              setState('working');
              setRound((r) => r + 1);
            }}
          >
            {t('proof.retry')}
          </button>
        </div>
      ) : null}
    </>
  );
}
