import { expect } from 'chai';
import { BRANDS } from '../../../src/brands';
import { CONTRAST_PAIRS, type Palette } from '../../../src/contract/tokens';

function luminance(hex: string): number {
  const value = hex.replace('#', '');
  const channels = [0, 2, 4].map((i) => parseInt(value.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('brand palettes meet WCAG 2.2 AA', () => {
  it('computes contrast correctly', () => {
    expect(contrast('#000000', '#ffffff')).to.be.closeTo(21, 0.01);
    expect(contrast('#777777', '#ffffff')).to.be.closeTo(4.48, 0.01);
  });

  for (const brand of Object.values(BRANDS)) {
    const themes: Array<[string, Palette]> = [['light', brand.lightTheme]];
    if (brand.darkTheme) themes.push(['dark', brand.darkTheme]);
    for (const [theme, palette] of themes) {
      it(`${brand.id} ${theme}: text ≥ 4.5:1, UI components ≥ 3:1`, () => {
        const failures = CONTRAST_PAIRS.map(([fg, bg, min]) => ({
          fg,
          bg,
          min,
          ratio: contrast(palette[fg], palette[bg]),
        }))
          .filter((pair) => pair.ratio < pair.min)
          .map((pair) => `${pair.fg} on ${pair.bg}: ${pair.ratio.toFixed(2)} < ${pair.min}`);
        expect(failures).to.deep.equal([]);
      });
    }
  }

  it('gives intoware and onsight a dark theme, and schenck none', () => {
    expect(BRANDS.intoware.darkTheme).to.not.equal(null);
    expect(BRANDS.onsight.darkTheme).to.not.equal(null);
    expect(BRANDS.schenck.darkTheme).to.equal(null);
  });
});
