import { expect } from 'chai';
import { readRuntimeSettings } from '../../../src/state/settings';

function documentWith(block: string | null): Document {
  const doc = document.implementation.createHTMLDocument('t');
  if (block !== null) {
    const script = doc.createElement('script');
    script.type = 'application/json';
    script.id = 'acct-env';
    script.textContent = block;
    doc.head.append(script);
  }
  return doc;
}

describe('state/settings: the acct-env block', () => {
  it('reads the known settings', () => {
    const settings = readRuntimeSettings(
      documentWith(
        '{"brand":"onsight","signUpUrl":"https://x.test/join","issuer":" https://id.test ","other":1}',
      ),
    );
    expect(settings).to.deep.equal({
      issuer: 'https://id.test',
      brand: 'onsight',
      basePath: undefined,
      signUpUrl: 'https://x.test/join',
    });
  });

  it('is empty without a block, with invalid JSON, or with non-object JSON', () => {
    expect(readRuntimeSettings(documentWith(null))).to.deep.equal({});
    expect(readRuntimeSettings(documentWith('{nope'))).to.deep.equal({});
    expect(readRuntimeSettings(documentWith('[1]'))).to.deep.equal({});
  });

  it('ignores values of the wrong type', () => {
    expect(readRuntimeSettings(documentWith('{"brand":7,"signUpUrl":""}')).brand).to.equal(undefined);
  });
});
