import type { ReactElement } from 'react';

/**
 * The brands' marks, drawn for this project (no third-party artwork). They inherit `currentColor`
 * so they follow the header's text colour in every theme; each carries its accessible name.
 */
export interface LogoProps {
  /** Accessible name; when omitted the logo is decorative. */
  label?: string;
  size?: number;
}

function svgProps(label: string | undefined, width: number, height: number) {
  return label
    ? { role: 'img', 'aria-label': label, width, height, viewBox: `0 0 ${width} ${height}` }
    : { 'aria-hidden': true, focusable: false, width, height, viewBox: `0 0 ${width} ${height}` };
}

/** intoware: two interlocking chevrons. */
export function IntowareMark({ label, size = 32 }: LogoProps): ReactElement {
  return (
    <svg {...svgProps(label, 32, 32)} style={{ width: size, height: size }} className="logo-mark">
      <path d="M4 6h8l8 10-8 10H4l8-10z" fill="currentColor" />
      <path d="M16 6h6l8 10-8 10h-6l8-10z" fill="currentColor" opacity=".6" />
    </svg>
  );
}

/** onsight: a ring with a focus dot. */
export function OnsightMark({ label, size = 32 }: LogoProps): ReactElement {
  return (
    <svg {...svgProps(label, 32, 32)} style={{ width: size, height: size }} className="logo-mark">
      <circle cx="16" cy="16" r="11" fill="none" stroke="currentColor" strokeWidth="4" />
      <circle cx="16" cy="16" r="4" fill="currentColor" />
    </svg>
  );
}

/** schenck: a stacked square. */
export function SchenckMark({ label, size = 32 }: LogoProps): ReactElement {
  return (
    <svg {...svgProps(label, 32, 32)} style={{ width: size, height: size }} className="logo-mark">
      <rect x="4" y="4" width="16" height="16" rx="2" fill="currentColor" />
      <rect x="12" y="12" width="16" height="16" rx="2" fill="currentColor" opacity=".6" />
    </svg>
  );
}
