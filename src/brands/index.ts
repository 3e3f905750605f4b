import type { ComponentType } from 'react';
import { PALETTES, type Palette, type ThemeName } from '../contract/tokens';
import {
  IntowareMark,
  IntowareWordmark,
  OnsightMark,
  OnsightWordmark,
  SchenckMark,
  SchenckWordmark,
  type LogoProps,
} from './logos';

import { BRAND_NAMES, type BrandId } from '../contract/brand-names';

export type { BrandId };

/** Brand settings (spec §3): name, icon, icon-text, privacy link, light and optional dark theme. */
export interface Brand {
  id: BrandId;
  /** The page title, and the accessible name of the wordmark. */
  name: string;
  /** The brand's mark. */
  Icon: ComponentType<LogoProps>;
  /** The icon-text image: the brand's name drawn as an SVG wordmark, shown beside the mark. */
  Wordmark: ComponentType<LogoProps>;
  privacyUrl: string;
  /** Footer provider link: intoware links to one provider site, onsight and schenck to another. */
  footer: { name: string; url: string };
  /** API documentation for the developer tools, or null for brands without a public API. */
  apiDocsUrl: string | null;
  /** The public API base shown in the developer tools, or null. */
  apiBaseUrl: string | null;
  lightTheme: Palette;
  darkTheme: Palette | null;
}

const INTOWARE_PROVIDER = { name: 'Intoware', url: 'https://www.intoware.com/' };
const PARTNER_PROVIDER = { name: 'WorkfloPlus', url: 'https://www.workfloplus.com/' };

export const BRANDS: Readonly<Record<BrandId, Brand>> = {
  intoware: {
    id: 'intoware',
    name: BRAND_NAMES.intoware,
    Icon: IntowareMark,
    Wordmark: IntowareWordmark,
    privacyUrl: 'https://www.intoware.com/privacy-policy/',
    footer: INTOWARE_PROVIDER,
    apiDocsUrl: 'https://api.workfloplus.com/swagger/',
    apiBaseUrl: 'https://api.workfloplus.com/',
    lightTheme: PALETTES.intoware.light,
    darkTheme: PALETTES.intoware.dark,
  },
  onsight: {
    id: 'onsight',
    name: BRAND_NAMES.onsight,
    Icon: OnsightMark,
    Wordmark: OnsightWordmark,
    privacyUrl: 'https://www.workfloplus.com/privacy-policy/',
    footer: PARTNER_PROVIDER,
    apiDocsUrl: null,
    apiBaseUrl: null,
    lightTheme: PALETTES.onsight.light,
    darkTheme: PALETTES.onsight.dark,
  },
  schenck: {
    id: 'schenck',
    name: BRAND_NAMES.schenck,
    Icon: SchenckMark,
    Wordmark: SchenckWordmark,
    privacyUrl: 'https://www.workfloplus.com/privacy-policy/',
    footer: PARTNER_PROVIDER,
    apiDocsUrl: null,
    apiBaseUrl: null,
    lightTheme: PALETTES.schenck.light,
    darkTheme: null,
  },
};

export const BRAND_IDS = Object.keys(BRANDS) as BrandId[];
export const DEFAULT_BRAND: BrandId = 'intoware';

/** The brand for an attribute or setting value; unknown or empty values give the default brand. */
export function resolveBrand(value: string | null | undefined): Brand {
  const id = (value ?? '').trim().toLowerCase();
  return (BRANDS as Record<string, Brand>)[id] ?? BRANDS[DEFAULT_BRAND];
}

/** The theme actually used: dark only when the brand has one and dark mode is wanted. */
export function themeOf(brand: Brand, darkWanted: boolean): ThemeName {
  return darkWanted && brand.darkTheme ? 'dark' : 'light';
}
