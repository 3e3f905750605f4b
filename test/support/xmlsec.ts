import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SIGNATURE_TEMPLATE = (id: string) =>
  '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo>' +
  '<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>' +
  '<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>' +
  `<ds:Reference URI="#${id}"><ds:Transforms>` +
  '<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>' +
  '<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></ds:Transforms>' +
  '<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/>' +
  '</ds:Reference></ds:SignedInfo><ds:SignatureValue/><ds:KeyInfo><ds:X509Data/></ds:KeyInfo></ds:Signature>';

/** The assertion's signature taken out: what an attacker who changes a signed assertion starts from. */
export function withoutSignature(xml: string): string {
  return xml.replace(/<ds:Signature\b[\s\S]*?<\/ds:Signature>/g, '');
}

/**
 * Sign the assertion `assertionId` of a hand-made SAML answer with `pair`, as a provider holding that
 * key would, by Debian's xmlsec1 (an implementation independent of the code under test): the
 * signature goes after the assertion's Issuer, over the assertion, with exclusive canonicalisation —
 * which leaves comments out of what is signed.
 */
export function signAssertion(xml: string, assertionId: string, pair: { key: string; cert: string }): string {
  const at = xml.indexOf(`ID="${assertionId}"`);
  const issuerEnd = xml.indexOf('</saml:Issuer>', at) + '</saml:Issuer>'.length;
  const template = xml.slice(0, issuerEnd) + SIGNATURE_TEMPLATE(assertionId) + xml.slice(issuerEnd);
  const dir = mkdtempSync(join(tmpdir(), 'acct-xmlsec-'));
  try {
    writeFileSync(join(dir, 'in.xml'), template);
    writeFileSync(join(dir, 'key.pem'), pair.key);
    writeFileSync(join(dir, 'cert.pem'), pair.cert);
    execFileSync('xmlsec1', [
      '--sign',
      '--privkey-pem',
      `${join(dir, 'key.pem')},${join(dir, 'cert.pem')}`,
      '--id-attr:ID',
      'urn:oasis:names:tc:SAML:2.0:assertion:Assertion',
      '--output',
      join(dir, 'out.xml'),
      join(dir, 'in.xml'),
    ]);
    return readFileSync(join(dir, 'out.xml'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
