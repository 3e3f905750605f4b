/**
 * custom-elements.json, generated from the JSDoc on the element classes: the five tags, the
 * attributes every element shares and the acct-* events each element fires.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';

const MANIFEST = resolve(import.meta.dirname, '..', '..', 'dist', 'custom-elements.json');

interface Declaration {
  tagName?: string;
  customElement?: boolean;
  attributes?: { name: string; description?: string; type?: { text: string } }[];
  events?: { name: string; description?: string }[];
}

function elements(): Map<string, Declaration> {
  assert.ok(existsSync(MANIFEST), 'dist/custom-elements.json is missing: run npm run build');
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as {
    modules: { declarations?: Declaration[]; exports?: { kind: string; name: string }[] }[];
  };
  const found = new Map<string, Declaration>();
  for (const mod of manifest.modules) {
    for (const declaration of mod.declarations ?? []) {
      if (!declaration.tagName) continue;
      assert.equal(declaration.customElement, true, declaration.tagName);
      const defined = (mod.exports ?? []).some(
        (e) => e.kind === 'custom-element-definition' && e.name === declaration.tagName,
      );
      assert.ok(defined, `${declaration.tagName} has no custom-element-definition export`);
      found.set(declaration.tagName, declaration);
    }
  }
  return found;
}

const names = (list: { name: string }[] | undefined) => (list ?? []).map((item) => item.name).sort();

/** The events each element fires (design §1, README "Events"). */
const EVENTS: Record<string, string[]> = {
  'acct-portal': ['acct-navigate', 'acct-signed-in', 'acct-signed-out', 'acct-theme-change'],
  'acct-header': ['acct-signed-out', 'acct-theme-change'],
  'acct-login': ['acct-signed-in'],
  'acct-manage': [],
  'acct-token': [],
};

describe('custom-elements.json', () => {
  it('lists the five tags, each with issuer, brand, lang and base-path described', () => {
    const found = elements();
    assert.deepEqual([...found.keys()].sort(), Object.keys(EVENTS).sort());
    for (const [tag, declaration] of found) {
      for (const common of ['issuer', 'brand', 'lang', 'base-path']) {
        const attribute = declaration.attributes?.find((a) => a.name === common);
        assert.ok(attribute?.description, `${tag} documents ${common}`);
      }
    }
    assert.deepEqual(names(found.get('acct-login')?.attributes), [
      'base-path',
      'brand',
      'issuer',
      'lang',
      'redirect',
      'return-url',
      'team',
    ]);
  });

  it('documents redirect as a boolean attribute that is on when present, bare or not', () => {
    const redirect = elements()
      .get('acct-login')
      ?.attributes?.find((attribute) => attribute.name === 'redirect');
    assert.equal(redirect?.type?.text, 'boolean');
    assert.match(redirect?.description ?? '', /<acct-login redirect>/);
    assert.match(redirect?.description ?? '', /redirect="false"/);
  });

  it('lists the acct-* events each element fires, acct-signed-in on acct-login', () => {
    const found = elements();
    for (const [tag, events] of Object.entries(EVENTS)) {
      const listed = names(found.get(tag)?.events);
      for (const event of events) assert.ok(listed.includes(event), `${tag} lists ${event}: ${listed}`);
      assert.ok(
        listed.every((event) => event.startsWith('acct-')),
        `${tag}: ${listed}`,
      );
    }
    const signedIn = found.get('acct-login')?.events?.find((e) => e.name === 'acct-signed-in');
    assert.match(signedIn?.description ?? '', /team.*email/);
  });

  it('lists acct-language-change on the elements with the language menu', () => {
    const found = elements();
    for (const tag of ['acct-portal', 'acct-header']) {
      assert.ok(names(found.get(tag)?.events).includes('acct-language-change'), tag);
    }
  });
});
