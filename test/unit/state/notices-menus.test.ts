import { expect } from 'chai';
import { menusStore } from '../../../src/state/menus';
import { iconFor, noticesStore, SNACKBAR_DURATION_MS } from '../../../src/state/notices';

describe('state/notices (snackbar)', () => {
  it('picks the icon by mode (spec §4)', () => {
    expect(iconFor('Success')).to.equal('success');
    expect(iconFor('Failure')).to.equal('failure');
    expect(iconFor('Other')).to.equal('neutral');
  });

  it('queues notices and drops each after 2500 ms', () => {
    expect(SNACKBAR_DURATION_MS).to.equal(2500);
    // A fake clock: the timers the store sets are recorded, and the test runs them, instead of waiting.
    const timers: Array<{ run: () => void; ms: number | undefined }> = [];
    const realSetTimeout = window.setTimeout;
    window.setTimeout = ((run: () => void, ms?: number) => timers.push({ run, ms })) as typeof setTimeout;
    let id: number;
    try {
      id = noticesStore.getState().show(['manage.password.setNotice'], 'Success');
    } finally {
      window.setTimeout = realSetTimeout;
    }
    expect(noticesStore.getState().queue.at(-1)).to.deep.equal({
      id,
      message: ['manage.password.setNotice'],
      mode: 'Success',
      icon: 'success',
    });
    expect(timers.map((timer) => timer.ms)).to.deep.equal([2500]);
    expect(noticesStore.getState().queue.some((n) => n.id === id)).to.equal(true);
    timers[0]!.run();
    expect(noticesStore.getState().queue.some((n) => n.id === id)).to.equal(false);
  });

  it('can be dismissed early', () => {
    const id = noticesStore.getState().show(['common.failed']);
    noticesStore.getState().dismiss(id);
    expect(noticesStore.getState().queue.some((n) => n.id === id)).to.equal(false);
  });
});

describe('state/menus (spec §4)', () => {
  beforeEach(() => menusStore.getState().close());

  it('opens one menu at a time', () => {
    menusStore.getState().toggle('account');
    expect(menusStore.getState().open).to.equal('account');
    menusStore.getState().toggle('switcher');
    expect(menusStore.getState().open).to.equal('switcher');
  });

  it('toggles closed and closes both', () => {
    menusStore.getState().toggle('account');
    menusStore.getState().toggle('account');
    expect(menusStore.getState().open).to.equal('closed');
    menusStore.getState().toggle('switcher');
    menusStore.getState().close();
    expect(menusStore.getState().open).to.equal('closed');
  });
});
