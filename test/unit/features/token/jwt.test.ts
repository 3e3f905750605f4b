import { expect } from 'chai';
import { decodePayload } from '../../../../src/features/token/jwt';

const b64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('token payload decoding (display only)', () => {
  it('reads the payload of a JWT, including non-ASCII text', () => {
    const token = `${b64url({ alg: 'EdDSA' })}.${btoa(unescape(encodeURIComponent(JSON.stringify({ scope: 'Job_Read', name: 'Zoë 山田' })))).replace(/=+$/, '')}.sig`;
    expect(decodePayload(token)).to.deep.equal({ scope: 'Job_Read', name: 'Zoë 山田' });
  });

  it('gives null for anything that is not a JWT with an object payload', () => {
    for (const token of ['', 'abc', 'a.!!!.c', `a.${b64url([1, 2])}.c`, `a.${b64url('text')}.c`]) {
      expect(decodePayload(token), token).to.equal(null);
    }
  });
});
