import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import * as samlify from 'samlify';
import { signingPair } from '../../demo/server/standin/saml';

// The identity provider here reads this site's AuthnRequests only to answer them; the answers are
// what the tests are about, and node-saml checks those against the XML schema's shape by itself.
samlify.setSchemaValidator({ validate: () => Promise.resolve('skipped') });

const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const BASIC = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';

/** A signing key and its self-signed certificate (PEM), made by openssl: the demo's stand-in's own. */
export { signingPair };

/** A key of an identity provider's metadata: its certificate (PEM) and what it is for (absent: both). */
export interface MetadataKey {
  cert: string;
  use?: 'signing' | 'encryption';
}

/**
 * An identity provider's SAML 2.0 metadata as providers publish it: an `EntityDescriptor` with an
 * `IDPSSODescriptor`, its keys (the certificates as bare base64 in `ds:X509Certificate`), and single
 * sign-on services for HTTP-POST and, unless `redirect` is false, HTTP-Redirect.
 */
export function idpMetadata(options: {
  entityId: string;
  ssoUrl: string;
  keys: MetadataKey[];
  redirect?: boolean;
}): string {
  const keys = options.keys
    .map(
      ({ cert, use }) =>
        `<md:KeyDescriptor${use ? ` use="${use}"` : ''}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert
          .replace(/-----[A-Z ]+-----/g, '')
          .trim()}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join('\n    ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escape(options.entityId)}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${keys}
    <md:NameIDFormat>${EMAIL_FORMAT}</md:NameIDFormat>
    <md:SingleSignOnService Binding="${POST}" Location="${escape(options.ssoUrl)}/post"/>${
      options.redirect === false
        ? ''
        : `
    <md:SingleSignOnService Binding="${REDIRECT}" Location="${escape(options.ssoUrl)}"/>`
    }
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;
}

/** What the test answer changes from an honest one: each value of the answer's template. */
export type AnswerTags = Partial<Record<string, string>>;

/**
 * An independent SAML 2.0 identity provider (samlify's IdentityProvider) for one connection of this
 * site: it reads the AuthnRequest from the redirect address this site made, and answers it with a
 * signed assertion for `user`, through HTTP-POST. `tags` bends the answer for the refusal tests.
 */
export class TestIdp {
  readonly entityId: string;
  readonly ssoUrl: string;
  private readonly idp: ReturnType<typeof samlify.IdentityProvider>;

  constructor(
    readonly pair = signingPair(),
    name = 'idp',
  ) {
    this.entityId = `https://${name}.example/metadata`;
    this.ssoUrl = `https://${name}.example/sso`;
    this.idp = samlify.IdentityProvider({
      entityID: this.entityId,
      signingCert: pair.cert,
      privateKey: pair.key,
      nameIDFormat: [EMAIL_FORMAT],
      singleSignOnService: [{ Binding: REDIRECT, Location: this.ssoUrl }],
      singleLogoutService: [{ Binding: REDIRECT, Location: `https://${name}.example/slo` }],
    });
  }

  /** This provider's metadata: its entity ID, sign-on address and signing certificate. */
  metadata(): string {
    return idpMetadata({
      entityId: this.entityId,
      ssoUrl: this.ssoUrl,
      keys: [{ cert: this.pair.cert, use: 'signing' }],
    });
  }

  /** The site as samlify sees it; without `signAssertion`, samlify signs the response instead. */
  private spFor(entityId: string, acsUrl: string, signAssertion = true) {
    return samlify.ServiceProvider({
      entityID: entityId,
      assertionConsumerService: [{ Binding: POST, Location: acsUrl }],
      wantAssertionsSigned: signAssertion,
    });
  }

  /**
   * Answer the request in the redirect address this site sent the browser to, as the provider's page
   * would: where to post (the request's ACS URL), the SAMLResponse and the RelayState to post back.
   */
  async answerRedirect(
    redirectUrl: string,
    user: { email: string; attributes?: Record<string, string | string[]> },
  ) {
    const url = new URL(redirectUrl);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    const request = new DOMParser().parseFromString(xml, 'text/xml').documentElement!;
    const issuer = request.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0];
    const sp = {
      entityId: issuer!.textContent!,
      acsUrl: request.getAttribute('AssertionConsumerServiceURL')!,
    };
    const id = await this.requestId(redirectUrl, sp);
    return {
      action: sp.acsUrl,
      SAMLResponse: await this.answer(sp, id, user),
      RelayState: url.searchParams.get('RelayState') ?? '',
    };
  }

  /** The request id inside the redirect address this site sent the browser to. */
  async requestId(redirectUrl: string, sp: { entityId: string; acsUrl: string }): Promise<string> {
    const url = new URL(redirectUrl);
    const parsed = await this.idp.parseLoginRequest(this.spFor(sp.entityId, sp.acsUrl), 'redirect', {
      query: Object.fromEntries(url.searchParams),
      octetString: url.search.slice(1),
    });
    return (parsed.extract as { request: { id: string } }).request.id;
  }

  /**
   * The base64 SAMLResponse answering `inResponseTo` (null: unsolicited) for `user`, with its
   * attributes, signed over the assertion as the connection requires.
   */
  async answer(
    sp: { entityId: string; acsUrl: string },
    inResponseTo: string | null,
    user: { email: string; attributes?: Record<string, string | string[]> },
    tags: AnswerTags = {},
    { signAssertion = true } = {},
  ): Promise<string> {
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000);
    const attributes = Object.entries(user.attributes ?? { email: user.email });
    const statement = attributes.length
      ? `<saml:AttributeStatement>${attributes
          .map(
            ([name, values]) =>
              `<saml:Attribute Name="${escape(name)}" NameFormat="${BASIC}">${[values]
                .flat()
                .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escape(v)}</saml:AttributeValue>`)
                .join('')}</saml:Attribute>`,
          )
          .join('')}</saml:AttributeStatement>`
      : '';
    const values: Record<string, string> = {
      ID: `_r${crypto.randomUUID()}`,
      AssertionID: `_a${crypto.randomUUID()}`,
      Destination: sp.acsUrl,
      Audience: sp.entityId,
      SubjectRecipient: sp.acsUrl,
      Issuer: this.entityId,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later.toISOString(),
      SubjectConfirmationDataNotOnOrAfter: later.toISOString(),
      NameIDFormat: EMAIL_FORMAT,
      NameID: user.email,
      InResponseTo: inResponseTo ?? '',
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      ...tags,
    } as Record<string, string>;
    const { context } = await this.idp.createLoginResponse(
      this.spFor(sp.entityId, sp.acsUrl, signAssertion),
      { extract: { request: { id: inResponseTo ?? '' } } },
      'post',
      { email: user.email },
      {
        customTagReplacement: (template: string) => {
          let xml = template;
          for (const [tag, value] of Object.entries(values))
            xml = xml.split(`{${tag}}`).join(tag === 'AuthnStatement' ? value : escape(value));
          // No InResponseTo at all for an unsolicited answer, rather than an empty one.
          if (inResponseTo === null) xml = xml.replaceAll(' InResponseTo=""', '');
          xml = xml.replace('{AttributeStatement}', statement);
          return { id: values.ID!, context: xml };
        },
      },
    );
    return context;
  }
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
