/** The brands' display names: the page title, and the name in e-mail the server sends. */
export const BRAND_NAMES = {
  intoware: 'Intoware',
  onsight: 'Onsight',
  schenck: 'Schenck',
} as const;

export type BrandId = keyof typeof BRAND_NAMES;
