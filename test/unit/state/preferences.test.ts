import { expect } from 'chai';
import { BRANDS, themeOf } from '../../../src/brands';
import { preferencesStore, readDarkModePreference } from '../../../src/state/preferences';

describe('state/preferences: dark mode (spec §4)', () => {
  beforeEach(() => {
    localStorage.removeItem('darkMode');
    preferencesStore.setState({ darkMode: false });
  });

  it('is dark only when the brand has a dark theme and darkMode is "true"', () => {
    expect(themeOf(BRANDS.intoware, true)).to.equal('dark');
    expect(themeOf(BRANDS.onsight, true)).to.equal('dark');
    expect(themeOf(BRANDS.schenck, true)).to.equal('light');
    expect(themeOf(BRANDS.intoware, false)).to.equal('light');
  });

  it('reads only the exact value "true"', () => {
    for (const value of ['1', 'TRUE', 'yes', '']) {
      localStorage.setItem('darkMode', value);
      expect(readDarkModePreference(), value).to.equal(false);
    }
    localStorage.setItem('darkMode', 'true');
    expect(readDarkModePreference()).to.equal(true);
  });

  it('stores the key when switched on and removes it when switched off', () => {
    expect(preferencesStore.getState().setDarkMode(true, BRANDS.intoware)).to.equal(true);
    expect(localStorage.getItem('darkMode')).to.equal('true');
    expect(preferencesStore.getState().darkMode).to.equal(true);
    preferencesStore.getState().setDarkMode(false, BRANDS.intoware);
    expect(localStorage.getItem('darkMode')).to.equal(null);
    expect(preferencesStore.getState().darkMode).to.equal(false);
  });

  it('follows dark mode switched in another tab', () => {
    localStorage.setItem('darkMode', 'true');
    window.dispatchEvent(new StorageEvent('storage', { key: 'darkMode', newValue: 'true' }));
    expect(preferencesStore.getState().darkMode).to.equal(true);
    localStorage.removeItem('darkMode');
    window.dispatchEvent(new StorageEvent('storage', { key: 'darkMode', oldValue: 'true' }));
    expect(preferencesStore.getState().darkMode).to.equal(false);
  });

  it('ignores the switch for a brand without a dark theme', () => {
    expect(preferencesStore.getState().setDarkMode(true, BRANDS.schenck)).to.equal(false);
    expect(localStorage.getItem('darkMode')).to.equal(null);
    expect(preferencesStore.getState().darkMode).to.equal(false);
  });

  it('stores the language choice in a cookie, not in local storage', () => {
    preferencesStore.getState().setLanguage('da');
    expect(preferencesStore.getState().language).to.equal('da');
    expect(document.cookie).to.contain('acct-lang=da');
    expect(Object.keys(localStorage)).to.not.include('acct-lang');
    preferencesStore.getState().setLanguage('en');
  });
});
