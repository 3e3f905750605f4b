/**
 * The Markdown of the repository links only to what is there: every relative link names a file or
 * folder that exists, and every `#anchor` (in the same file or another) a heading of that file. The
 * README sends a newcomer on to docs/: a link that moved or a renamed heading fails here, not in front
 * of a reader. Addresses with a scheme (https:, mailto:) are not followed; code is not read.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SKIP = new Set(['node_modules', 'dist', 'test-results', 'data', '.git', '.cache']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !SKIP.has(entry.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return markdownFiles(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
}

/** The text outside fenced code blocks and inline code. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets -1, -2, … as on GitHub). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The targets of a file's inline links and images, `[text](target "title")`. */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1]!,
  );
}

describe('Markdown links', () => {
  it('name files that exist and headings that exist in them', () => {
    const files = markdownFiles(ROOT);
    assert.ok(files.length >= 10, `found only ${files.length} Markdown files`);
    const problems: string[] = [];
    for (const file of files) {
      const markdown = readFileSync(file, 'utf8');
      for (const link of linksOf(markdown)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: …
        const [path = '', anchor] = link.split('#');
        const target = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
        const where = `${relative(ROOT, file)}: ${link}`;
        if (!existsSync(target)) {
          problems.push(`${where} — no such file`);
          continue;
        }
        if (anchor === undefined) continue;
        if (statSync(target).isDirectory() || !target.endsWith('.md')) {
          problems.push(`${where} — an anchor into something not Markdown`);
        } else if (!anchorsOf(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor))) {
          problems.push(`${where} — no heading with that anchor`);
        }
      }
    }
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });

  it('makes the anchors GitHub makes', () => {
    assert.equal(
      slug('Several nodes (PostgreSQL behind a load balancer)'),
      'several-nodes-postgresql-behind-a-load-balancer',
    );
    assert.equal(slug('`acct-login` attributes'), 'acct-login-attributes');
    assert.equal(slug('Rotating keys — by hand'), 'rotating-keys--by-hand');
  });
});
