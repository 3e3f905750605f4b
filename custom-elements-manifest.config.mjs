/**
 * Custom Elements Manifest: generated from the JSDoc on the element classes (src/elements). The plugin
 * adds what every element shares — the common attributes, CSS custom properties and parts — so each
 * element file documents only its own.
 */
// Loaded with tsx (see the build script), so the token list comes straight from the source.
import { TOKEN_PROPERTIES } from './src/contract/tokens.ts';

const COMMON_ATTRIBUTES = [
  ['issuer', 'string', 'Identity server base URL. Default: the page origin.'],
  [
    'brand',
    "'intoware' | 'onsight' | 'schenck'",
    'White-label brand. Default: the acct-env block, else intoware.',
  ],
  ['lang', 'string', 'Forces the interface language (en, fr, es, pt, de, ja, da).'],
  ['base-path', 'string', "Where the portal's routes are mounted, e.g. /accounts. Default: the root."],
];

const COMMON_CSS_PROPERTIES = [
  ...Object.values(TOKEN_PROPERTIES).map((name) => [
    `--acct-color-${name}`,
    `Colour token "${name}" (brand and theme default).`,
  ]),
  ['--acct-font-family', 'Font stack of the element.'],
  ['--acct-font-size', 'Base font size (default 16px).'],
  ['--acct-radius', 'Corner radius of cards, inputs and buttons (default 8px).'],
  ['--acct-card-width', 'Maximum width of the sign-in card (default 26rem).'],
];

const COMMON_PARTS = [
  ['root', 'The themed root of the shadow tree.'],
  ['card', 'The card around a form or panel.'],
];

function commonPlugin() {
  return {
    name: 'acct-common-api',
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        for (const decl of mod.declarations ?? []) {
          if (!decl.tagName) continue;
          decl.customElement = true;
          // elementClass() builds the base with r2wc; to users the element is an HTMLElement.
          decl.superclass = { name: 'HTMLElement' };
          mod.exports = [
            ...(mod.exports ?? []).filter((e) => e.kind !== 'custom-element-definition'),
            {
              kind: 'custom-element-definition',
              name: decl.tagName,
              declaration: { name: decl.name, module: mod.path },
            },
          ];
          const own = decl.attributes ?? [];
          decl.attributes = [
            ...COMMON_ATTRIBUTES.map(([name, type, description]) => ({
              name,
              type: { text: type },
              description,
            })),
            ...own.filter((a) => !COMMON_ATTRIBUTES.some(([name]) => name === a.name)),
          ];
          decl.cssProperties = [
            ...COMMON_CSS_PROPERTIES.map(([name, description]) => ({ name, description })),
            ...(decl.cssProperties ?? []),
          ];
          decl.cssParts = [
            ...COMMON_PARTS.map(([name, description]) => ({ name, description })),
            ...(decl.cssParts ?? []),
          ];
        }
      }
    },
  };
}

export default {
  globs: ['src/elements/acct-*.ts'],
  outdir: 'dist',
  litelement: false,
  packagejson: false,
  plugins: [commonPlugin()],
};
