import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { AXE_TAGS } from './wcag';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Run axe-core on the page — through the open shadow roots of the elements — and describe each
 * violation. axe is evaluated through the DevTools protocol, not injected as a script, so the page's
 * strict CSP stays in force. `colours` runs only the rules a theme can change, for a state already
 * checked whole in another theme.
 */
/** The rules whose outcome depends on colours: all a theme changes (the document stays the same). */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

export async function axeViolations(page: Page, only: 'all' | 'colours' = 'all'): Promise<string[]> {
  // Once per document: a state checked in two themes is one document.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const runOnly =
    only === 'colours' ? { type: 'rule', values: COLOUR_RULES } : { type: 'tag', values: AXE_TAGS };
  return page.evaluate(async (runOnly) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: unknown,
          ): Promise<{
            violations: Array<{
              id: string;
              help: string;
              nodes: Array<{ target: unknown[]; failureSummary?: string }>;
            }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly, resultTypes: ['violations'] });
    return result.violations.map(
      (v) =>
        `${v.id} (${v.help}): ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join(' | ')}`,
    );
  }, runOnly);
}
