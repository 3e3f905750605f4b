import { expect } from 'chai';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { BRAND_IDS, BRANDS } from '../../../src/brands';

// React's act() needs this flag outside a test framework that sets it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Issue 2: every brand has a mark and an icon-text image (wordmark), both our own SVGs. */
describe('brand artwork', () => {
  let host: HTMLElement;
  let root: Root;
  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  for (const id of BRAND_IDS) {
    it(`${id}: the wordmark is a named SVG image of the brand's name, drawn in currentColor`, () => {
      const { Wordmark, name } = BRANDS[id];
      act(() => root.render(<Wordmark label={name} size={20} />));
      const svg = host.querySelector('svg')!;
      expect(svg.getAttribute('role')).to.equal('img');
      expect(svg.getAttribute('aria-label')).to.equal(name);
      expect(svg.textContent!.toLowerCase()).to.equal(name.toLowerCase());
      expect(svg.querySelector('text')!.getAttribute('fill')).to.equal('currentColor');
      // Laid out at the asked height with the width of its own box, whatever font the page has.
      const box = svg.getBoundingClientRect();
      expect(box.height).to.equal(20);
      expect(box.width).to.be.greaterThan(60);
      const [, , w = 0, h = 1] = svg.getAttribute('viewBox')!.split(' ').map(Number);
      expect(box.width / box.height).to.be.closeTo(w / h, 0.01);
    });

    it(`${id}: without a label the wordmark is decorative (hidden from screen readers)`, () => {
      const { Wordmark } = BRANDS[id];
      act(() => root.render(<Wordmark />));
      const svg = host.querySelector('svg')!;
      expect(svg.getAttribute('aria-hidden')).to.equal('true');
      expect(svg.hasAttribute('role')).to.equal(false);
    });
  }

  it('gives each brand its own wordmark and mark', () => {
    const marks = new Set(BRAND_IDS.map((id) => BRANDS[id].Icon));
    const words = new Set(BRAND_IDS.map((id) => BRANDS[id].Wordmark));
    expect(marks.size).to.equal(BRAND_IDS.length);
    expect(words.size).to.equal(BRAND_IDS.length);
  });
});
