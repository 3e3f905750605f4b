/**
 * Mixed pages: an element whose language is written right to left on a left-to-right host page, and an
 * English one on a right-to-left page. Each element's root takes the direction of its own language and
 * lays out accordingly (the field's label at its own start edge, the header's logo at the bar's start);
 * the host page's `<html dir>` and its own text stay as the host made them: only `<acct-portal>`, which
 * owns its page, sets them.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, useE2E } from '../support/browser';
import { freePort } from '../support/test-server';

/**
 * The host pages come from a server of their own on another local origin, as a customer's site would
 * (a page the browser made up itself would count as public and be refused the loopback bundle).
 */
const hostPort = await freePort();
let hostHtml = '';
let host: Server | undefined;
const e2e = useE2E({ CORS_ORIGINS: `http://localhost:${hostPort}` });
before(async () => {
  host = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostHtml),
  );
  await new Promise<void>((resolve) => host!.listen(hostPort, resolve));
});
after(() => new Promise<void>((resolve) => (host ? host.close(() => resolve()) : resolve())));

/** A host page: the bundle from the issuer, the elements with `lang` attributes. */
function hostPage(html: { dir?: 'rtl'; lang: string; elements: string }): string {
  const issuer = e2e.server.url;
  return `<!doctype html>
<html lang="${html.lang}"${html.dir ? ` dir="${html.dir}"` : ''}>
  <head>
    <meta charset="utf-8" />
    <title>Mixed directions</title>
    <script type="module" src="${issuer}/dist/acct-elements.js"></script>
  </head>
  <body>
    <p id="host-text">${html.lang === 'ar' ? 'صفحة المضيف' : 'The host page'}</p>
    ${html.elements.replaceAll('%ISSUER%', issuer)}
  </body>
</html>`;
}

interface Layout {
  html: { dir: string; lang: string; direction: string };
  host: string;
  login: { dir: string | null; direction: string; label: Edges; input: Edges & { dir: string | null } };
  header: { dir: string | null; direction: string; bar: Edges; logo: Edges };
}

interface Edges {
  left: number;
  right: number;
}

/** Where things are, read in the page (kept as source: it runs there). */
const MEASURE = `(() => {
  const edges = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right };
  };
  // A label may be a block as wide as its field: where its text is, not its box.
  const textEdges = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = range.getBoundingClientRect();
    return { left: r.left, right: r.right };
  };
  const rootOf = (tag) => document.querySelector(tag).shadowRoot.querySelector('.acct-root');
  const login = rootOf('acct-login');
  const input = login.querySelector('input[type="email"]');
  const header = rootOf('acct-header');
  return {
    html: {
      dir: document.documentElement.getAttribute('dir') ?? '',
      lang: document.documentElement.lang,
      direction: getComputedStyle(document.documentElement).direction,
    },
    host: getComputedStyle(document.getElementById('host-text')).direction,
    login: {
      dir: login.getAttribute('dir'),
      direction: getComputedStyle(login).direction,
      label: textEdges(login.querySelector('label[for="' + input.id + '"]')),
      input: { ...edges(input), dir: input.getAttribute('dir') },
    },
    header: {
      dir: header.getAttribute('dir'),
      direction: getComputedStyle(header).direction,
      bar: edges(header.querySelector('header')),
      logo: edges(header.querySelector('.header-logo')),
    },
  };
})()`;

async function open(page: Page, html: string): Promise<Layout> {
  hostHtml = html;
  await page.goto(`http://localhost:${hostPort}/`);
  await page.locator('acct-login input[type="email"]').waitFor();
  await page.locator('acct-header .header-logo').waitFor();
  return (await page.evaluate(MEASURE)) as Layout;
}

/** The distance of a box's start edge from its container's start edge, in the given direction. */
const fromStart = (box: Edges, container: Edges, direction: string) =>
  direction === 'rtl' ? container.right - box.right : box.left - container.left;

describe('mixed directions on one page', () => {
  it('an Arabic element on an English page mirrors; the page stays left to right', async () => {
    await e2e.withPage(async ({ page }) => {
      const layout = await open(
        page,
        hostPage({
          lang: 'en',
          elements:
            '<acct-header issuer="%ISSUER%" lang="ar"></acct-header>' +
            '<acct-login issuer="%ISSUER%" team="acme" lang="ar"></acct-login>',
        }),
      );
      await screenshot(page, 'mixed-direction', 'arabic-on-english');
      assert.deepEqual(layout.html, { dir: '', lang: 'en', direction: 'ltr' });
      assert.equal(layout.host, 'ltr');
      for (const element of [layout.login, layout.header]) {
        assert.equal(element.dir, 'rtl');
        assert.equal(element.direction, 'rtl');
      }
      // The label starts at the field's right edge; the address in it still reads left to right.
      assert.ok(
        Math.abs(layout.login.label.right - layout.login.input.right) < 2,
        JSON.stringify(layout.login),
      );
      assert.ok(layout.login.label.left - layout.login.input.left > 20, JSON.stringify(layout.login));
      assert.equal(layout.login.input.dir, 'ltr');
      // The logo is at the bar's right, its start.
      assert.ok(
        fromStart(layout.header.logo, layout.header.bar, 'rtl') <
          fromStart(layout.header.logo, layout.header.bar, 'ltr'),
        JSON.stringify(layout.header),
      );
    });
  });

  it('an English element on an Arabic page does not mirror; the page stays right to left', async () => {
    await e2e.withPage(async ({ page }) => {
      const layout = await open(
        page,
        hostPage({
          lang: 'ar',
          dir: 'rtl',
          elements:
            '<acct-header issuer="%ISSUER%" lang="en"></acct-header>' +
            '<acct-login issuer="%ISSUER%" team="acme" lang="en"></acct-login>',
        }),
      );
      await screenshot(page, 'mixed-direction', 'english-on-arabic');
      assert.deepEqual(layout.html, { dir: 'rtl', lang: 'ar', direction: 'rtl' });
      assert.equal(layout.host, 'rtl');
      for (const element of [layout.login, layout.header]) {
        assert.equal(element.dir, 'ltr');
        assert.equal(element.direction, 'ltr');
      }
      assert.ok(
        Math.abs(layout.login.label.left - layout.login.input.left) < 2,
        JSON.stringify(layout.login),
      );
      assert.ok(layout.login.input.right - layout.login.label.right > 20, JSON.stringify(layout.login));
      assert.equal(layout.login.input.dir, 'ltr');
      assert.ok(
        fromStart(layout.header.logo, layout.header.bar, 'ltr') <
          fromStart(layout.header.logo, layout.header.bar, 'rtl'),
        JSON.stringify(layout.header),
      );
    });
  });
});
