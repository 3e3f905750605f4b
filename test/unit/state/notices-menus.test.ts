import { expect } from 'chai';
import { menusStore } from '../../../src/state/menus';
import { iconFor, noticesStore, SNACKBAR_DURATION_MS } from '../../../src/state/notices';

describe('state/notices (snackbar)', () => {
  it('picks the icon by mode (spec §4)', () => {
    expect(iconFor('Success')).to.equal('success');
    expect(iconFor('Failure')).to.equal('failure');
    expect(iconFor('Other')).to.equal('neutral');
  });

  it('queues notices and drops each after 2500 ms', async () => {
    expect(SNACKBAR_DURATION_MS).to.equal(2500);
    const started = performance.now();
    const id = noticesStore.getState().show('password set', 'Success');
    expect(noticesStore.getState().queue.at(-1)).to.deep.equal({
      id,
      message: 'password set',
      mode: 'Success',
      icon: 'success',
    });
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect(noticesStore.getState().queue.some((n) => n.id === id)).to.equal(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(noticesStore.getState().queue.some((n) => n.id === id)).to.equal(false);
    expect(performance.now() - started).to.be.greaterThan(2500);
  });

  it('can be dismissed early', () => {
    const id = noticesStore.getState().show('x');
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
