import { expect } from 'chai';
import { LANGUAGE_COOKIE, storedLanguage } from '../../../src/i18n/stored-language';
import { callPhases } from '../support';

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
    let settled: boolean | undefined;
    const { whileAsking, all, result } = await callPhases(
      (record) => {
        cookieStore.get = function (name) {
          record();
          return realGet.call(this, name);
        };
        return () => delete (cookieStore as Partial<CookieStoreLike>).get;
      },
      () => {
        const stored = storedLanguage();
        settled = stored.settled;
        return stored.settled ? Promise.resolve(stored.value) : stored.value;
      },
    );
    expect(whileAsking, 'the Cookie Store read by the code that asked').to.deep.equal([]);
    expect(settled).to.equal(false);
    expect(result).to.equal('fr');
    expect(all).to.deep.equal(['after']);
    expect(cookieStore.get).to.equal(realGet);
  });
});
