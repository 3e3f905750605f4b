/**
 * Our stylesheets say start and end, not left and right, so that a right-to-left element mirrors by its
 * `dir` alone: `margin-inline-start`, `inset-inline-end`, `text-align: start`… A physical property or
 * value fails here unless the allow-list below says why it must stay physical.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { it } from 'node:test';
import { plainPageCss } from '../../demo/server/lib/plain-page';

const STYLES = resolve(import.meta.dirname, '..', '..', 'src', 'styles');

/** `file: declaration` → why it stays physical. */
const ALLOWED: Record<string, string> = {
  // A chevron drawn as the corner of two borders and turned 45°: it points down in both directions,
  // while logical borders would turn it sideways in right-to-left.
  'screens.css: border-right: 2px solid currentColor': 'a symmetric chevron',
};

/** A declaration that names a physical side: a property (`left`, `margin-right`…) or a value (`float: left`). */
const PHYSICAL = /(?:^|[\s-])(?:left|right)(?:-|\s*:)|:\s*(?:left|right)\b|translateX\(/;

/** Each declaration of a stylesheet, comments left out. */
function declarations(css: string): string[] {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(/[;{}]/)
    .map((part) => part.trim().replace(/\s+/g, ' '))
    .filter((part) => /^[a-z-]+\s*:/.test(part));
}

function physical(name: string, css: string): string[] {
  return declarations(css)
    .filter((declaration) => PHYSICAL.test(declaration))
    .map((declaration) => `${name}: ${declaration}`)
    .filter((found) => !(found in ALLOWED));
}

it('the elements’ stylesheets use logical properties, not left and right', () => {
  const found = ['base.css', 'screens.css'].flatMap((file) =>
    physical(file, readFileSync(join(STYLES, file), 'utf8')),
  );
  assert.deepEqual(found, []);
});

it('the provider’s plain pages’ stylesheet too', () => {
  assert.deepEqual(physical('provider-pages.css', plainPageCss('intoware')), []);
});

it('finds a physical property (the check can fail)', () => {
  assert.deepEqual(physical('x.css', 'a { margin-left: 1px; float: right; padding: 0 } b{left:0}'), [
    'x.css: margin-left: 1px',
    'x.css: float: right',
    'x.css: left:0',
  ]);
});
