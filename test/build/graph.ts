import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The build output folder (`npm run build` writes it; these helpers only read it). */
export const DIST = resolve(import.meta.dirname, '..', '..', 'dist');
export const ENTRY = join(DIST, 'acct-elements.js');
export const IIFE = join(DIST, 'acct-elements.iife.js');
export const CHUNKS = join(DIST, 'chunks');

/** The module references of a bundle file, read with the TypeScript parser (not a regex on minified code). */
export interface ModuleReferences {
  /** `import … from`, `import '…'` and `export … from`: loaded before the file runs. */
  staticImports: string[];
  /** `import('…')`: loaded only when that code runs. */
  dynamicImports: string[];
  /** Whether the file has `import`/`export` statements, `import.meta` or `import()` at all. */
  moduleSyntax: string[];
}

const parsed = new Map<string, ModuleReferences>();

export function moduleReferences(file: string): ModuleReferences {
  const known = parsed.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const refs: ModuleReferences = { staticImports: [], dynamicImports: [], moduleSyntax: [] };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      refs.moduleSyntax.push(ts.SyntaxKind[node.kind]);
      if (node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        refs.staticImports.push(node.moduleSpecifier.text);
      }
    } else if (ts.isExportAssignment(node)) {
      refs.moduleSyntax.push('ExportAssignment');
    } else if (
      ts.isMetaProperty(node) &&
      node.keywordToken === ts.SyntaxKind.ImportKeyword &&
      node.name.text === 'meta'
    ) {
      refs.moduleSyntax.push('import.meta');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      refs.moduleSyntax.push('import()');
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteral(specifier)) refs.dynamicImports.push(specifier.text);
    }
    // Declarations with an `export` modifier (`export const x = …`) are module syntax too.
    if (
      ts.canHaveModifiers(node) &&
      ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      refs.moduleSyntax.push(`export ${ts.SyntaxKind[node.kind]}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  parsed.set(file, refs);
  return refs;
}

function resolveFrom(file: string, specifier: string): string {
  return resolve(dirname(file), specifier);
}

/** Every file loaded before `entry` runs: the entry and, transitively, its static imports. */
export function staticGraph(entry: string = ENTRY): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of moduleReferences(file).staticImports) {
      pending.push(resolveFrom(file, specifier));
    }
  }
  return seen;
}

/** The dynamic imports made anywhere in a set of files (resolved paths). */
export function dynamicTargets(files: Iterable<string>): Set<string> {
  const targets = new Set<string>();
  for (const file of files) {
    for (const specifier of moduleReferences(file).dynamicImports) targets.add(resolveFrom(file, specifier));
  }
  return targets;
}

/** The chunk files (`dist/chunks/*.js`), as absolute paths. */
export function chunkFiles(): string[] {
  if (!existsSync(CHUNKS)) return [];
  return readdirSync(CHUNKS)
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => join(CHUNKS, name));
}

/** The source files a bundle file was built from, relative to the project root (from its source map). */
export function sourcesOf(file: string): string[] {
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
  const root = resolve(DIST, '..');
  return map.sources.map((source) => relative(root, resolve(dirname(file), source)).replaceAll('\\', '/'));
}

/** The chunks built from at least one source file matching `pattern` (by the source maps). */
export function chunksWithSource(pattern: RegExp): string[] {
  return chunkFiles().filter((chunk) => sourcesOf(chunk).some((source) => pattern.test(source)));
}

/**
 * The parts that must be lazily loaded, each recognised by the sources it is built from: the screens
 * (small helpers such as features/token/fragment.ts may run with the entry).
 */
export const LAZY_PARTS = {
  'developer tools': /^src\/features\/token\/token-(form|success|element)\.tsx$/,
  'QR code': /^src\/features\/qr\/qr-section\.tsx$|^node_modules\/qrcode\.react\//,
  'manage area': /^src\/features\/manage\/[\w-]+\.tsx$/,
  "manage area's table of sections": /^src\/portal\/manage-(sections|composed)\.tsx$/,
  'join request at the team step': /^src\/features\/login\/join-request\.tsx$/,
  'password reset screen': /^src\/features\/login\/reset-screen\.tsx$/,
  'forgot-password and team screens': /^src\/features\/login\/(forgot|team)-screen\.tsx$/,
  'invitation screen': /^src\/features\/login\/invite-screen\.tsx$|^src\/api\/invitation\.ts$/,
  'search page': /^src\/features\/search\/search-page\.tsx$|^src\/api\/search\.ts$/,
  'passkeys and two-step screen': /^src\/features\/security\/[\w-]+\.tsx?$/,
  'password strength meter': /^src\/ui\/strength\/[\w-]+\.tsx?$|^node_modules\/@zxcvbn-ts\//,
  'passkey ceremony and second step at sign-in':
    /^src\/features\/login\/(passkey|second-step)\.tsx?$|^node_modules\/@simplewebauthn\/browser\/|^src\/api\/(passkeys|two-step)\.ts$|^src\/ui\/(totp-key|recovery-codes)\.tsx$/,
  // Its worker (ui/proof/worker.ts, a script of its own started by `new Worker`) is not a chunk.
  'proof-of-work check': /^src\/ui\/proof\/(proof|solve)\.tsx?$|^src\/api\/challenge\.ts$/,
} as const;

export { LANGUAGES } from '../../src/contract/languages';

/** The chunk of one language: `chunks/<code>-<hash>.js` (the JSON plugin writes no source map to go by). */
export function languageChunks(code: string): string[] {
  return chunkFiles().filter((chunk) => new RegExp(`^${code}-[\\w-]+\\.js$`).test(basename(chunk)));
}
