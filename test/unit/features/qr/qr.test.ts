import { expect } from 'chai';
import { clampVersion, qrPayload, QR_LEVEL, QR_SIZE } from '../../../../src/features/qr/qr-section';

describe('QR rules (spec §5, §9)', () => {
  it('is 400 px, error correction M', () => {
    expect(QR_SIZE).to.equal(400);
    expect(QR_LEVEL).to.equal('M');
  });

  it('clamps the version to 1–40', () => {
    expect(clampVersion(0)).to.equal(1);
    expect(clampVersion(-5)).to.equal(1);
    expect(clampVersion(1)).to.equal(1);
    expect(clampVersion(40)).to.equal(40);
    expect(clampVersion(41)).to.equal(40);
    expect(clampVersion(Number.NaN)).to.equal(1);
    expect(clampVersion(7.6)).to.equal(8);
  });

  it('refuses empty data', () => {
    expect(() => qrPayload(null)).to.throw('QR data must not be empty');
    expect(() => qrPayload({} as never)).to.throw('QR data must not be empty');
    const code = {
      device_code: 'd',
      user_code: 'ABCD-EFGH',
      verification_uri: 'https://x',
      expires_in: 600,
      interval: 5,
    };
    expect(JSON.parse(qrPayload(code))).to.deep.equal(code);
  });
});
