import { expect } from 'chai';
import { FSI, PDI, isolateValues } from '../../../src/i18n/bidi';
import { directionOf } from '../../../src/contract/languages';

describe('i18n: the direction of a language and bidi isolation of the values in a sentence', () => {
  it('knows which languages are written right to left', () => {
    expect(['ar', 'he', 'he-IL', 'ar_EG'].map(directionOf)).to.deep.equal(['rtl', 'rtl', 'rtl', 'rtl']);
    expect(['en', 'fr', 'ja', 'zh-Hans', ''].map(directionOf)).to.deep.equal([
      'ltr',
      'ltr',
      'ltr',
      'ltr',
      'ltr',
    ]);
  });

  it('isolates every string value in a right-to-left sentence, never i18next’s own options', () => {
    const isolated = isolateValues(
      { actor: 'Ada Lovelace', email: 'ada@example.com', count: 2, context: 'male', lng: 'ar' },
      'rtl',
    );
    expect(isolated).to.deep.equal({
      actor: `${FSI}Ada Lovelace${PDI}`,
      email: `${FSI}ada@example.com${PDI}`,
      count: 2,
      context: 'male',
      lng: 'ar',
    });
  });

  it('in a left-to-right sentence isolates only right-to-left values, once', () => {
    const options = { actor: 'Ada Lovelace', team: 'Acme' };
    expect(isolateValues(options, 'ltr')).to.equal(options);
    expect(isolateValues({ actor: 'نور', team: 'Acme' }, 'ltr')).to.deep.equal({
      actor: `${FSI}نور${PDI}`,
      team: 'Acme',
    });
    expect(isolateValues({ actor: `${FSI}נועה${PDI}` }, 'ltr')).to.deep.equal({ actor: `${FSI}נועה${PDI}` });
  });
});
