import { X509Certificate } from 'node:crypto';

/**
 * A certificate as PEM, from PEM or the bare base64 a provider's console (or its metadata's
 * `X509Certificate`) shows; null if it is none. Typed and metadata certificates pass this one check.
 */
export function pemOf(text: string): { pem: string; cert: X509Certificate } | null {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+=*$/.test(body)) return null;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
  try {
    return { pem, cert: new X509Certificate(pem) };
  } catch {
    return null;
  }
}
