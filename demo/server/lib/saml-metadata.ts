import { DOMParser } from '@xmldom/xmldom';
import { appUriProblem } from '../../../src/contract/app-uris';
import { METADATA_MAX_BYTES, type MetadataProblem } from '../../../src/contract/connections';
import { CERTIFICATES_MAX, CONNECTION_URL_LENGTH } from '../../../src/contract/schemas/connections';
import { pemOf } from './certificates';
import { fetchGuarded, isPublicAddress, OutboundError, type OutboundOptions } from './outbound';

/**
 * A SAML identity provider's details read from its metadata (SAML 2.0 Metadata, OASIS), pasted or
 * fetched from its address: the entity ID, the single sign-on address of the HTTP-Redirect binding
 * (the one node-saml sends its requests by) and the certificates it signs with.
 */

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const SAML2_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** The provider's details, ready for a connection: the certificates as PEM. */
export interface ProviderDetails {
  entityId: string;
  ssoUrl: string;
  certificates: string[];
}

export type MetadataOutcome =
  { ok: true; details: ProviderDetails } | { ok: false; problem: MetadataProblem; message: string };

const refused = (problem: MetadataProblem, message: string): MetadataOutcome => ({
  ok: false,
  problem,
  message,
});

/** The element children of `parent` in the namespace with the local name. */
function children(parent: Element, namespace: string, name: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    const element = node as Element;
    if (node.nodeType === 1 && element.namespaceURI === namespace && element.localName === name)
      found.push(element);
  }
  return found;
}

const descendants = (parent: Element, namespace: string, name: string): Element[] =>
  Array.from(parent.getElementsByTagNameNS(namespace, name));

/** Parsed, or null when the text is not well-formed enough to be read as XML. */
function parse(xml: string): Document | null {
  const fail = (message: string) => {
    throw new Error(message);
  };
  try {
    const doc = new DOMParser({
      errorHandler: { warning: () => {}, error: fail, fatalError: fail },
    }).parseFromString(xml, 'text/xml');
    return doc.documentElement ? (doc as unknown as Document) : null;
  } catch {
    return null;
  }
}

/**
 * The provider's details from its metadata: an `EntityDescriptor`, or an `EntitiesDescriptor` holding
 * exactly one identity provider. A document type declaration is refused before parsing: metadata has
 * no use for one, and entities are how XML parsers are made to read files or swell (XXE, "billion
 * laughs").
 */
export function readMetadata(xml: string): MetadataOutcome {
  if (Buffer.byteLength(xml, 'utf8') > METADATA_MAX_BYTES)
    return refused('tooLarge', `metadata is limited to ${METADATA_MAX_BYTES} bytes`);
  if (/<!(DOCTYPE|ENTITY)/i.test(xml)) return refused('doctype', 'metadata may not declare a document type');
  const root = parse(xml.replace(/^\uFEFF/, ''))?.documentElement;
  const kind = root?.namespaceURI === MD ? root.localName : null;
  if (!root || (kind !== 'EntityDescriptor' && kind !== 'EntitiesDescriptor'))
    return refused('notMetadata', 'not SAML 2.0 metadata');
  const entities = kind === 'EntityDescriptor' ? [root] : descendants(root, MD, 'EntityDescriptor');
  // An identity provider that speaks SAML 2.0 (one descriptor may list SAML 1.1 too).
  const providers = entities.flatMap((entity) =>
    children(entity, MD, 'IDPSSODescriptor')
      .filter((descriptor) =>
        (descriptor.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes(SAML2_PROTOCOL),
      )
      .map((descriptor) => ({ entity, descriptor })),
  );
  if (providers.length === 0) return refused('noProvider', 'no SAML 2.0 identity provider in the metadata');
  if (new Set(providers.map(({ entity }) => entity)).size > 1)
    return refused('multipleProviders', 'the metadata holds several identity providers: give one');
  const { entity, descriptor } = providers[0]!;

  const entityId = (entity.getAttribute('entityID') ?? '').trim();
  if (!entityId || entityId.length > CONNECTION_URL_LENGTH)
    return refused('noEntityId', 'the identity provider has no entity ID');

  const sso = children(descriptor, MD, 'SingleSignOnService').find(
    (service) => service.getAttribute('Binding') === REDIRECT_BINDING,
  );
  if (!sso) return refused('noRedirectService', 'no single sign-on service with the HTTP-Redirect binding');
  const ssoUrl = (sso.getAttribute('Location') ?? '').trim();
  if (ssoUrl.length > CONNECTION_URL_LENGTH || appUriProblem(ssoUrl, 'web'))
    return refused('invalidSsoUrl', 'the single sign-on address is not an https address');

  // Keys without a `use` serve both signing and encryption (Metadata §2.4.1.1).
  const texts = children(descriptor, MD, 'KeyDescriptor')
    .filter((key) => [null, '', 'signing'].includes(key.getAttribute('use')))
    .flatMap((key) => descendants(key, DS, 'X509Certificate').map((cert) => cert.textContent ?? ''));
  if (texts.length === 0) return refused('noSigningCertificate', 'no signing certificate in the metadata');
  const certificates: string[] = [];
  for (const text of texts) {
    const parsed = pemOf(text);
    if (!parsed) return refused('invalidCertificate', 'a signing certificate is not an X.509 certificate');
    if (!certificates.includes(parsed.pem)) certificates.push(parsed.pem);
  }
  if (certificates.length > CERTIFICATES_MAX)
    return refused('tooManyCertificates', `at most ${CERTIFICATES_MAX} signing certificates are kept`);
  return { ok: true, details: { entityId, ssoUrl, certificates } };
}

export interface MetadataFetchOptions {
  /** This site's own address: plain http metadata addresses only where it is on http itself. */
  publicUrl: string;
  /** OUTBOUND_PRIVATE_ADDRESSES=allow: no guard against addresses inside the network. */
  privateAddresses: boolean;
  timeoutMs?: number;
  /** Outbound options beyond these (the tests' guard and lookup). */
  outbound?: Partial<OutboundOptions>;
}

/** The provider's details from the metadata at `url`, fetched through the outbound guard. */
export async function fetchMetadata(url: string, options: MetadataFetchOptions): Promise<MetadataOutcome> {
  let body: Buffer;
  try {
    ({ body } = await fetchGuarded(url, {
      allowHttp: new URL(options.publicUrl).protocol === 'http:',
      addressAllowed: options.privateAddresses ? () => true : isPublicAddress,
      maxBytes: METADATA_MAX_BYTES,
      accept: 'application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1',
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...options.outbound,
    }));
  } catch (error) {
    if (error instanceof OutboundError) return refused(error.problem, error.message);
    throw error;
  }
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return refused('notMetadata', 'the answer is not UTF-8 text');
  }
  return readMetadata(xml);
}
