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

/** A wordmark's drawing: the lettering, its box and its style (our own lettering, no third-party artwork). */
interface WordmarkArt {
  text: string;
  width: number;
  weight: number;
  spacing: number;
}

/**
 * The icon-text image (spec §3 brand settings): the brand's name drawn as an SVG. The glyphs are
 * stretched to a fixed `textLength`, so the image has the same size whatever font the host page resolves.
 */
function wordmark(art: WordmarkArt) {
  return function Wordmark({ label, size = 20 }: LogoProps): ReactElement {
    return (
      <svg
        {...svgProps(label, art.width, 24)}
        style={{ height: size, width: (size * art.width) / 24 }}
        className="logo-text"
        data-wordmark={art.text}
      >
        <text
          x="0"
          y="19"
          textLength={art.width}
          lengthAdjust="spacingAndGlyphs"
          fill="currentColor"
          fontFamily="system-ui, sans-serif"
          fontSize="20"
          fontWeight={art.weight}
          letterSpacing={art.spacing}
        >
          {art.text}
        </text>
      </svg>
    );
  };
}

/** intoware: lower-case, heavy. */
export const IntowareWordmark = wordmark({ text: 'intoware', width: 92, weight: 700, spacing: 0 });
/** onsight: lower-case, light and open. */
export const OnsightWordmark = wordmark({ text: 'onsight', width: 80, weight: 400, spacing: 1 });
/** schenck: capitals, spaced. */
export const SchenckWordmark = wordmark({ text: 'SCHENCK', width: 112, weight: 600, spacing: 3 });
