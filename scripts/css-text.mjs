/**
 * `import css from './x.css'` gives the file's text, minified (comments and needless whitespace removed).
 * Used by the rollup build; the test bundler uses esbuild's `text` loader for the same imports.
 */
export function minifyCss(source) {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{}:;,>])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim();
}

export function cssText() {
  return {
    name: 'css-text',
    transform(code, id) {
      if (!id.endsWith('.css')) return null;
      return { code: `export default ${JSON.stringify(minifyCss(code))};`, map: { mappings: '' } };
    },
  };
}
