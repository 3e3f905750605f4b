/**
 * Comments and test names say why, in the code's own terms: no tracker references (an issue or pull
 * request by its number, a bare hash and number, a review finding's id in parentheses), which mean
 * nothing to a reader without the tracker and go stale when it moves. History and
 * figures belong in docs/decisions/. Each folder is its own test, so a failure says where.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SCRIPT = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIP = new Set(['node_modules', 'dist', 'test-results', 'data']);

/** A tracker reference: an issue or pull request by number, a hash and a number, a review finding's id. */
const REFERENCES = [
  /\b(issues?|pull requests?|PRs?)\s*#?\d+/i,
  /(?<![\w&])#\d+(?![\w-])/,
  /\(S\d+\)|(?<![\w-])S\d+:/,
];

/** The names `node:test` and mocha take a test's name from. */
const TEST_FUNCTIONS = new Set(['describe', 'it', 'test', 'suite', 'context']);

/** A comment or a test name, and where it starts in its file. */
interface Said {
  pos: number;
  text: string;
}

function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { withFileTypes: true })
    .filter((entry) => !SKIP.has(entry.name))
    .flatMap((entry) =>
      entry.isDirectory()
        ? filesUnder(join(path, entry.name))
        : SCRIPT.test(entry.name)
          ? [join(path, entry.name)]
          : [],
    );
}

/** The comments of a script, with the line each starts on (found through the syntax tree, so a `//` in a
 * string or a regular expression is not one). */
function commentsOf(source: ts.SourceFile): Said[] {
  const comments = new Map<number, Said>();
  const visit = (node: ts.Node) => {
    if (node.kind !== ts.SyntaxKind.JsxText) {
      const ranges = [
        ...(ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? []),
        ...(ts.getTrailingCommentRanges(source.text, node.getEnd()) ?? []),
      ];
      for (const range of ranges)
        comments.set(range.pos, { pos: range.pos, text: source.text.slice(range.pos, range.end) });
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...comments.values()];
}

/** The names given to describe/it/test(…), with their lines (the literal part of a template). */
function testNamesOf(source: ts.SourceFile): Said[] {
  const names: Said[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression : undefined;
      const name = ts.isIdentifier(node.expression)
        ? node.expression.text
        : callee && ts.isIdentifier(callee.expression)
          ? // it.skip(…), describe.only(…), or a context's t.test(…)
            TEST_FUNCTIONS.has(callee.expression.text)
            ? callee.expression.text
            : callee.name.text
          : undefined;
      const first = node.arguments[0];
      if (name && TEST_FUNCTIONS.has(name) && first) {
        const text = ts.isStringLiteralLike(first)
          ? first.text
          : ts.isTemplateExpression(first)
            ? [first.head.text, ...first.templateSpans.map((span) => span.literal.text)].join(' … ')
            : undefined;
        if (text !== undefined) names.push({ pos: first.getStart(source), text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** `file:line: reference` for each tracker reference in what a script's comments and test names say. */
function referencesIn(file: string, source: ts.SourceFile, said: Said[]): string[] {
  return said.flatMap(({ pos, text }) =>
    REFERENCES.flatMap((pattern) => {
      const match = pattern.exec(text);
      if (!match) return [];
      const line = source.getLineAndCharacterOfPosition(pos + match.index).line + 1;
      return [`${file}:${line}: ${match[0]}`];
    }),
  );
}

/** The tracker references in the comments and test names of the scripts under `path` (a folder or a file). */
function findingsIn(path: string): string[] {
  return filesUnder(path).flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    // Parsing is the slow part: only files with a candidate anywhere are parsed.
    if (!REFERENCES.some((pattern) => pattern.test(text))) return [];
    const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    return referencesIn(file, source, [...commentsOf(source), ...testNamesOf(source)]);
  });
}

/** A shell script's comments (`# …` to the end of the line). */
function shellFindings(file: string): string[] {
  return readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .flatMap((line, index) => {
      const comment = /(?:^|\s)#(?!!)(.*)$/.exec(line)?.[1] ?? '';
      return REFERENCES.flatMap((pattern) => {
        const match = pattern.exec(comment);
        return match ? [`${file}:${index + 1}: ${match[0]}`] : [];
      });
    });
}

const rootConfigs = readdirSync(ROOT).filter((name) => /^(rollup|web-test-runner)\.config\./.test(name));

describe('comments and test names carry no tracker references', () => {
  for (const folder of ['src', 'test', 'scripts']) {
    it(`in ${folder}/`, () => assert.deepEqual(findingsIn(folder), []));
  }
  // Reported on its own, so that its findings are told apart from the rest.
  it('in demo/server/', () => assert.deepEqual(findingsIn('demo/server'), []));
  it('in demo/ outside the server', () => {
    const rest = readdirSync(join(ROOT, 'demo')).filter((name) => name !== 'server');
    assert.deepEqual(
      rest.flatMap((name) => findingsIn(join('demo', name))),
      [],
    );
  });
  it('in the build and test-runner configurations and .ci/run', () => {
    assert.ok(rootConfigs.length >= 2, `found ${rootConfigs.join(', ')}`);
    assert.deepEqual([...rootConfigs.flatMap(findingsIn), ...shellFindings('.ci/run')], []);
  });
  it('are found where they are: a comment, a test name, a template name and a shell comment', () => {
    const source = ts.createSourceFile(
      'x.ts',
      [
        '// fixed in issue 7',
        "/** see #12 */ const colour = '#123'; const entity = '&#39;';",
        "describe('bad tokens (issue 11)', () => it(`in ${'x'} (S2)`, () => undefined));",
        "it('keeps #fff', () => undefined); const re = /#1/; const half = 1 / 2; // plain",
      ].join('\n'),
      ts.ScriptTarget.Latest,
      true,
    );
    const found = referencesIn('x.ts', source, [...commentsOf(source), ...testNamesOf(source)]);
    assert.deepEqual(found.sort(), ['x.ts:1: issue 7', 'x.ts:2: #12', 'x.ts:3: (S2)', 'x.ts:3: issue 11']);
  });
});
