import { expect } from 'chai';
import { safeReturnUrl } from '../../../../src/contract/return-url';

const origin = 'https://portal.example.test';

describe('ReturnUrl rule (spec §4, design §3)', () => {
  it('accepts same-origin paths longer than 5 characters, re-serialised', () => {
    expect(safeReturnUrl('/manage/qr', origin)).to.equal('/manage/qr');
    expect(safeReturnUrl('/abcde', origin)).to.equal('/abcde');
    expect(safeReturnUrl('/manage?tab=1#x', origin)).to.equal('/manage?tab=1#x');
    expect(safeReturnUrl('/a/../manage', origin)).to.equal('/manage');
    expect(safeReturnUrl('/%2F%2Fevil.test', origin)).to.equal('/%2F%2Fevil.test');
  });

  it('refuses everything else', () => {
    const refused = [
      null,
      undefined,
      '',
      '/abcd',
      'manage/qr',
      '//evil.test',
      '///evil.test',
      '/\\evil.test',
      '/\\/evil.test',
      '\\\\evil.test/xx',
      '/\t/evil.test',
      '/\n/evil.test',
      '/\r/evil.test',
      ' /manage/qr',
      '/manage/qr ',
      '/\u00a0/evil.test',
      '/\u200b/evil.test',
      '/\u202e/evil.test',
      'https://evil.test/x',
      'https:evil.test/xx',
      'javascript:alert(1)',
      'data:text/html,hello',
      '/\\@evil.test',
      // Dot segments that collapse into a `//host` path once resolved.
      '/.//evil.test',
      '/..//evil.test',
      '/manage/..//evil.test',
      '/%2e//evil.test',
      '/%2e%2e//evil.test',
    ];
    for (const value of refused) expect(safeReturnUrl(value, origin), JSON.stringify(value)).to.equal(null);
  });
});
