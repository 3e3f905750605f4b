import { expect } from 'chai';
import { LANGUAGE_COOKIE, storedLanguage } from '../../../src/i18n/stored-language';

/** The Cookie Store API as this page has it (Chromium, a secure origin). */
interface CookieStoreLike {
  get(name: string): Promise<{ value?: string } | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}
const cookieStore = (globalThis as unknown as { cookieStore: CookieStoreLike }).cookieStore;

describe('i18n: the stored language', () => {
  afterEach(() => cookieStore.delete(LANGUAGE_COOKIE));

  it('is read from the Cookie Store once the code that asked has run: never during the bundle evaluation', async () => {
    // src/after-evaluation.ts: a cookie read while the bundle evaluates costs a re-parse of all of it.
    await cookieStore.set(LANGUAGE_COOKIE, 'fr');
    const realGet = cookieStore.get;
    let phase: 'asking' | 'after' = 'asking';
    const calls: string[] = [];
    cookieStore.get = function (name) {
      calls.push(phase);
      return realGet.call(this, name);
    };
    try {
      const stored = storedLanguage();
      phase = 'after';
      expect(calls, 'the Cookie Store read by the code that asked').to.deep.equal([]);
      expect(stored.settled).to.equal(false);
      expect(await stored.value).to.equal('fr');
      expect(calls).to.deep.equal(['after']);
    } finally {
      delete (cookieStore as Partial<CookieStoreLike>).get;
    }
    expect(cookieStore.get).to.equal(realGet);
  });
});
