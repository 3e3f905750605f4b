import { normalizeIssuer } from '../api/url';

/**
 * Runtime environment settings (design §1): a JSON block in the host page,
 * `<script type="application/json" id="acct-env">{…}</script>`. It is data, not script, so a strict CSP
 * allows it. Element attributes override these values.
 */
export interface RuntimeSettings {
  issuer?: string;
  brand?: string;
  basePath?: string;
  /** Where the Register button of the team screen leads; no address → no button. */
  signUpUrl?: string;
}

const cache = new WeakMap<Document, RuntimeSettings>();

/** An element's identity server: its `issuer` attribute, else the runtime settings', else the page's origin. */
export function issuerOf(attribute: string | undefined, settings: RuntimeSettings): string {
  return normalizeIssuer(attribute ?? settings.issuer, location.origin);
}

function pickString(record: Record<string, unknown>, key: keyof RuntimeSettings): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

export function readRuntimeSettings(doc: Document = document): RuntimeSettings {
  const cached = cache.get(doc);
  if (cached) return cached;
  let settings: RuntimeSettings = {};
  const text = doc.getElementById('acct-env')?.textContent;
  if (text) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const record = parsed as Record<string, unknown>;
        settings = {
          issuer: pickString(record, 'issuer'),
          brand: pickString(record, 'brand'),
          basePath: pickString(record, 'basePath'),
          signUpUrl: pickString(record, 'signUpUrl'),
        };
      }
    } catch {
      console.warn('acct-elements: the #acct-env block is not valid JSON and is ignored.');
    }
  }
  cache.set(doc, settings);
  return settings;
}
