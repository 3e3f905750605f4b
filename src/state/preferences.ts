import { createStore } from 'zustand/vanilla';
import type { Brand } from '../brands';
import { detectLanguage, LANGUAGE_COOKIE_MAX_AGE, type Language } from '../contract/languages';
import { LANGUAGE_COOKIE, storedLanguage } from '../i18n/stored-language';

const DARK_MODE_KEY = 'darkMode';
/** The team last used on the team screen (spec §3 local storage: the default team name). */
const DEFAULT_TEAM_KEY = 'defaultTeam';
/** The developer tools' chosen policies, comma-separated (spec §3: saved scopes). */
const SAVED_SCOPES_KEY = 'savedScopes';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage blocked (privacy settings, sandboxed frames)
  }
}

/** `localStorage.darkMode === 'true'` (spec §4). */
export function readDarkModePreference(): boolean {
  try {
    return storage()?.getItem(DARK_MODE_KEY) === 'true';
  } catch {
    return false;
  }
}

export function readDefaultTeam(): string | null {
  try {
    return storage()?.getItem(DEFAULT_TEAM_KEY) ?? null;
  } catch {
    return null;
  }
}

export function saveDefaultTeam(team: string): void {
  try {
    storage()?.setItem(DEFAULT_TEAM_KEY, team);
  } catch {
    // storage full or blocked: the team is simply not remembered
  }
}

export function readSavedScopes(): string[] {
  try {
    return (storage()?.getItem(SAVED_SCOPES_KEY) ?? '').split(',').filter(Boolean);
  } catch {
    return [];
  }
}

export function saveScopes(scopes: readonly string[]): void {
  try {
    storage()?.setItem(SAVED_SCOPES_KEY, scopes.join(','));
  } catch {
    // not remembered this time
  }
}

export interface PreferencesState {
  /** The stored wish for dark mode; the theme is dark only if the brand also has a dark theme. */
  darkMode: boolean;
  /** The page's language (detected, or chosen and stored). Elements with a `lang` attribute override it. */
  language: Language;
  /**
   * Whether `language` is final: false only while the stored choice is still being read without
   * blocking (see `storedLanguage`); until then `language` is the browser's.
   */
  languageKnown: boolean;
  /**
   * Switch dark mode for a brand: stores `darkMode=true` or removes the key. Brands without a dark theme
   * ignore the switch. Returns whether the theme is now dark.
   */
  setDarkMode(on: boolean, brand: Brand): boolean;
  /** Choose and store the language. */
  setLanguage(language: Language): void;
}
const browserLanguages = globalThis.navigator?.languages ?? [];
const stored = storedLanguage();

export const preferencesStore = createStore<PreferencesState>()((set) => ({
  darkMode: readDarkModePreference(),
  language: detectLanguage({ stored: stored.settled ? stored.value : null, browser: browserLanguages }),
  languageKnown: stored.settled,
  setDarkMode(on, brand) {
    if (!brand.darkTheme) return false;
    try {
      if (on) storage()?.setItem(DARK_MODE_KEY, 'true');
      else storage()?.removeItem(DARK_MODE_KEY);
    } catch {
      // storage full or blocked: the switch still applies to this page
    }
    set({ darkMode: on });
    return on;
  },
  setLanguage(language) {
    document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(language)}; path=/; max-age=${LANGUAGE_COOKIE_MAX_AGE}; SameSite=Lax`;
    set({ language, languageKnown: true });
  },
}));

if (!stored.settled) {
  void stored.value.then((value) => {
    // A language chosen meanwhile wins over the stored one.
    if (preferencesStore.getState().languageKnown) return;
    preferencesStore.setState({
      language: detectLanguage({ stored: value, browser: browserLanguages }),
      languageKnown: true,
    });
  });
}

// Dark mode switched in another tab of the same site applies here too (the `storage` event comes only
// from other documents; `key` is null when the storage was cleared).
globalThis.addEventListener?.('storage', (event: StorageEvent) => {
  if (event.key !== DARK_MODE_KEY && event.key !== null) return;
  preferencesStore.setState({ darkMode: readDarkModePreference() });
});

/** The page's language once it is final (`languageKnown`): at once if it already is. */
export function knownLanguage(): Promise<Language> {
  return new Promise((resolve) => {
    const settle = (state: PreferencesState) => state.languageKnown && (resolve(state.language), true);
    if (settle(preferencesStore.getState())) return;
    const stop = preferencesStore.subscribe((state) => {
      if (settle(state)) stop();
    });
  });
}
