import { expect } from 'chai';
import { render, screen } from '@testing-library/react';
import { LimitBar, limitTone } from '../../../src/ui/limit-bar';

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
    render(
      <>
        <LimitBar value={150} label="users" text="150%" />
        <LimitBar value={-3} label="storage" text="none" />
      </>,
    );
    const bars = screen.getAllByRole('progressbar');
    expect(bars.map((bar) => [bar.getAttribute('aria-valuenow'), bar.className])).to.deep.equal([
      ['100', 'limit-bar limit-negative'],
      ['0', 'limit-bar limit-positive'],
    ]);
    const users = screen.getByRole('progressbar', { name: 'users' });
    expect(users).to.equal(bars[0]);
    expect(users.getAttribute('aria-label')).to.equal('users');
    expect(users.getAttribute('aria-valuetext')).to.equal('150%');
    expect(screen.getByRole('progressbar', { name: 'storage' })).to.equal(bars[1]);
  });
});
