import { expect } from 'chai';
import { fireEvent, waitFor } from '@testing-library/react';
import { loadLanguage } from '../../../src/i18n/instance';
import { addTextPart } from '../../../src/i18n/parts';
import type { Proof } from '../../../src/contract/schemas/challenge';
import ProofOfWork, { SLOW_MS, type ProofSolver } from '../../../src/ui/proof/proof';
import { expectNoAxeViolations, renderWithElement } from '../render';

const PROOF = {
  challenge: {
    parameters: {
      algorithm: 'PBKDF2/SHA-256',
      nonce: 'aa',
      salt: 'bb',
      cost: 1000,
      keyLength: 32,
      keyPrefix: 'cc',
      expiresAt: 1,
    },
    signature: 'dd',
  },
  solution: { counter: 1, derivedKey: 'ee' },
} satisfies Proof;

/** A solver the test settles by hand. */
function manualSolver() {
  const calls: Array<{ resolve(proof: Proof): void; reject(error: Error): void; signal: AbortSignal }> = [];
  const solve: ProofSolver = (_ctx, signal) =>
    new Promise<Proof>((resolve, reject) => calls.push({ resolve, reject, signal }));
  return { solve, calls };
}

describe('ui/proof: the proof-of-work check', () => {
  before(async () => {
    for (const language of ['en', 'de'] as const) await addTextPart(await loadLanguage(language), 'security');
  });

  it('shows nothing while a quick solve runs, then hands the proof over once', async () => {
    const { solve, calls } = manualSolver();
    const solved: Proof[] = [];
    const { container } = await renderWithElement(
      <ProofOfWork solve={solve} onSolved={(p) => solved.push(p)} />,
    );
    await waitFor(() => expect(calls).to.have.length(1));
    expect(container.textContent).to.equal('');
    // The live region is there before anything is said in it.
    expect(container.querySelector('[role="status"]')).to.exist;
    calls[0]!.resolve(PROOF);
    await waitFor(() => expect(solved).to.deep.equal([PROOF]));
    expect(container.textContent).to.equal('');
  });

  it('says politely that it is still at it when a solve takes long; axe-clean in light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { solve } = manualSolver();
      const { view, container, unmount } = await renderWithElement(
        <ProofOfWork solve={solve} onSolved={() => undefined} />,
        { theme },
      );
      const status = await view.findByText(
        /Still checking that a person is here/,
        {},
        { timeout: SLOW_MS + 2000 },
      );
      expect(status.closest('[role="status"]')).to.exist;
      expect(container.querySelector('[role="alert"]')).to.equal(null);
      await expectNoAxeViolations(container);
      unmount();
    }
  });

  it('says it failed, with a retry that solves again; the abandoned solve is stopped', async () => {
    const { solve, calls } = manualSolver();
    let failed = 0;
    const solved: Proof[] = [];
    const { view, container, unmount } = await renderWithElement(
      <ProofOfWork solve={solve} onSolved={(p) => solved.push(p)} onFailed={() => failed++} />,
    );
    await waitFor(() => expect(calls).to.have.length(1));
    calls[0]!.reject(new Error('network'));
    const alert = await view.findByRole('alert');
    expect(alert.textContent).to.match(/couldn't finish the automatic security check/);
    expect(failed).to.equal(1);
    await expectNoAxeViolations(container);
    fireEvent.click(view.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls).to.have.length(2));
    expect(calls[0]!.signal.aborted).to.equal(true);
    expect(view.queryByRole('alert')).to.equal(null);
    calls[1]!.resolve(PROOF);
    await waitFor(() => expect(solved).to.have.length(1));
    unmount();
    expect(calls[1]!.signal.aborted).to.equal(true);
  });

  it('speaks the element’s language', async () => {
    const { solve, calls } = manualSolver();
    const { view } = await renderWithElement(<ProofOfWork solve={solve} onSolved={() => undefined} />, {
      language: 'de',
    });
    await waitFor(() => expect(calls).to.have.length(1));
    calls[0]!.reject(new Error('x'));
    expect(await view.findByRole('button', { name: 'Erneut versuchen' })).to.exist;
  });
});
