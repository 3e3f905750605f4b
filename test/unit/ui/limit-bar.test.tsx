import { expect } from 'chai';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { LimitBar, limitTone } from '../../../src/ui/limit-bar';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('ui/limit-bar (spec §4, §9)', () => {
  it('is positive below 70, warning from 70 to below 90, negative from 90', () => {
    expect([0, 69, 69.99, 70, 89, 89.99, 90, 100].map(limitTone)).to.deep.equal([
      'positive',
      'positive',
      'positive',
      'warning',
      'warning',
      'warning',
      'negative',
      'negative',
    ]);
  });

  it('renders an accessible progress bar, clamped to 0–100', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    act(() =>
      root.render(
        <>
          <LimitBar value={150} label="users" text="150%" />
          <LimitBar value={-3} label="storage" text="none" />
        </>,
      ),
    );
    const bars = [...host.querySelectorAll('[role="progressbar"]')];
    expect(bars.map((bar) => [bar.getAttribute('aria-valuenow'), bar.className])).to.deep.equal([
      ['100', 'limit-bar limit-negative'],
      ['0', 'limit-bar limit-positive'],
    ]);
    expect(bars[0]!.getAttribute('aria-label')).to.equal('users');
    expect(bars[0]!.getAttribute('aria-valuetext')).to.equal('150%');
    act(() => root.unmount());
    host.remove();
  });
});
