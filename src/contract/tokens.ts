/**
 * Design tokens: one palette per brand and theme. Every colour is exposed to host pages as a
 * `--acct-color-*` custom property (set it on the element or any ancestor to override), and the shadow
 * styles only ever read the private `--_*` variables generated from these tokens.
 *
 * The contrast pairs the unit tests check (WCAG 2.2 AA) are listed in {@link CONTRAST_PAIRS}.
 */
export interface Palette {
  /** Background of the element's root area. */
  bg: string;
  /** Background of cards, menus and dialogs. */
  surface: string;
  /** Body text on `bg` and `surface`. */
  text: string;
  /** Secondary text (hints, captions) on `bg` and `surface`. */
  muted: string;
  /** Buttons, links, focus accents. */
  primary: string;
  /** Text and icons on `primary`. */
  onPrimary: string;
  /** Borders of inputs and other UI components (must reach 3:1 against `surface`). */
  border: string;
  /** Error text and error borders. */
  danger: string;
  /** Success text and icons. */
  success: string;
  /** Warning state of the limit bar. */
  warning: string;
  /** The focus ring. */
  focus: string;
  /** Header background and text. */
  headerBg: string;
  headerText: string;
}

export type ThemeName = 'light' | 'dark';

/** Token name → public custom property suffix (`--acct-color-<suffix>`). */
export const TOKEN_PROPERTIES: Record<keyof Palette, string> = {
  bg: 'bg',
  surface: 'surface',
  text: 'text',
  muted: 'muted',
  primary: 'primary',
  onPrimary: 'on-primary',
  border: 'border',
  danger: 'danger',
  success: 'success',
  warning: 'warning',
  focus: 'focus',
  headerBg: 'header-bg',
  headerText: 'header-text',
};

/** Foreground/background pairs and the minimum contrast ratio each must reach (4.5 text, 3 UI). */
export const CONTRAST_PAIRS: ReadonlyArray<[keyof Palette, keyof Palette, number]> = [
  ['text', 'bg', 4.5],
  ['text', 'surface', 4.5],
  ['muted', 'bg', 4.5],
  ['muted', 'surface', 4.5],
  ['primary', 'surface', 4.5],
  ['primary', 'bg', 4.5],
  ['onPrimary', 'primary', 4.5],
  ['danger', 'surface', 4.5],
  ['danger', 'bg', 4.5],
  ['success', 'surface', 4.5],
  ['border', 'surface', 3],
  ['focus', 'surface', 3],
  ['focus', 'bg', 3],
  ['warning', 'surface', 3],
  // The limit bar's fills on its track (the track is `bg`): UI components, 3:1.
  ['success', 'bg', 3],
  ['warning', 'bg', 3],
  ['headerText', 'headerBg', 4.5],
];

export const PALETTES = {
  intoware: {
    light: {
      bg: '#f4f6f9',
      surface: '#ffffff',
      text: '#1b2430',
      muted: '#4f5b6b',
      primary: '#0b5cad',
      onPrimary: '#ffffff',
      border: '#7a8594',
      danger: '#b3261e',
      success: '#1e7a3c',
      warning: '#a15c00',
      focus: '#0b5cad',
      headerBg: '#0b2540',
      headerText: '#ffffff',
    },
    dark: {
      bg: '#10161e',
      surface: '#1a232e',
      text: '#e8edf3',
      muted: '#aab5c3',
      primary: '#7db4f5',
      onPrimary: '#0b1622',
      border: '#7d8a9a',
      danger: '#ff9a8f',
      success: '#7ad69a',
      warning: '#f0b35a',
      focus: '#9cc7ff',
      headerBg: '#070d14',
      headerText: '#e8edf3',
    },
  },
  onsight: {
    light: {
      bg: '#f7f5f2',
      surface: '#ffffff',
      text: '#241c15',
      muted: '#5c5147',
      primary: '#a3400a',
      onPrimary: '#ffffff',
      border: '#857769',
      danger: '#b0182b',
      success: '#23703a',
      warning: '#9a5b00',
      focus: '#a3400a',
      headerBg: '#2b1d12',
      headerText: '#fff7f0',
    },
    dark: {
      bg: '#15110d',
      surface: '#221b15',
      text: '#f3ece5',
      muted: '#c1b4a7',
      primary: '#ffa06a',
      onPrimary: '#261206',
      border: '#8f8174',
      danger: '#ff9aa5',
      success: '#86d6a0',
      warning: '#f2bb63',
      focus: '#ffb98f',
      headerBg: '#0c0907',
      headerText: '#f3ece5',
    },
  },
  schenck: {
    light: {
      bg: '#f3f6f5',
      surface: '#ffffff',
      text: '#14231f',
      muted: '#4a5b56',
      primary: '#00664f',
      onPrimary: '#ffffff',
      border: '#74857f',
      danger: '#b3261e',
      success: '#00664f',
      warning: '#975a00',
      focus: '#00664f',
      headerBg: '#0e2a23',
      headerText: '#ffffff',
    },
  },
} satisfies Record<string, { light: Palette; dark?: Palette }>;
