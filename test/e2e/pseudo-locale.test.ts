/**
 * The pseudo-locale on the OpenID Provider's own pages: the server's English texts are swapped for an
 * accented, 40% longer version of themselves with every text wrapped in ⟦ ⟧, and each page is searched for
 * text without the marker (test/support/pseudo-locale.ts). The elements' screens are looked at in the
 * pseudo-locale by the screens sweep (test/support/screens-sweep.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { screenshot, useE2E } from '../support/browser';
import { TEXTS } from '../../demo/server/mail/texts';
import { visitProviderPages } from '../support/provider-pages-sweep';
import { untranslated } from '../support/pseudo-locale';
import { SHOTS_ENV } from '../support/screens';
import { pseudoLocale } from '../support/texts';

const e2e = useE2E(SHOTS_ENV);

/**
 * Every string of `target` replaced, in place, by the one at the same place in `source`; returns what
 * puts the old ones back. The server's i18next reads its texts from these objects.
 */
function replaceTexts(target: Record<string, unknown>, source: Record<string, unknown>): () => void {
  const restores: Array<() => void> = [];
  for (const [key, value] of Object.entries(source)) {
    const old = target[key];
    if (typeof value === 'string') {
      target[key] = value;
      restores.push(() => (target[key] = old));
    } else restores.push(replaceTexts(old as Record<string, unknown>, value as Record<string, unknown>));
  }
  return () => restores.forEach((restore) => restore());
}

describe('pseudo-locale, the OpenID Provider’s own pages', () => {
  it('shows no text that bypasses the server’s texts, on any of its pages', async () => {
    // The test server runs in this process: its English texts become the pseudo-locale's for a while.
    const english = TEXTS.en as unknown as Record<string, unknown>;
    const restore = replaceTexts(english, pseudoLocale(structuredClone(english)));
    const found: string[] = [];
    try {
      await visitProviderPages(e2e, async (name, page) => {
        await screenshot(page, 'pseudo-locale', name);
        for (const text of await untranslated(page, { plain: true })) found.push(`${name}: ${text}`);
      });
    } finally {
      restore();
    }
    assert.deepEqual(found, []);
  });
});
