/**
 * A team's enterprise connections: the link to its company's identity provider (Okta, Microsoft Entra
 * ID, Google Workspace, any SAML 2.0 or OpenID Connect provider) that its staff sign in through. Shared
 * by the team screens and the server; no DOM, no React.
 */

export const CONNECTION_PROTOCOLS = ['saml', 'oidc'] as const;
export type ConnectionProtocol = (typeof CONNECTION_PROTOCOLS)[number];

/** The guided setups: a provider's own steps and its attribute names, or a generic one. */
export const CONNECTION_PRESETS = ['okta', 'entra', 'google', 'saml', 'oidc'] as const;
export type ConnectionPreset = (typeof CONNECTION_PRESETS)[number];

/** Why a SAML request was sent: a test sign-in (creates no session) or a sign-in. */
export type SamlPurpose = 'test' | 'signIn';

/**
 * Where the claims are in the provider's answer: an attribute's name, or `nameId` for the subject's
 * NameID. The e-mail is required; the stable id defaults to the NameID.
 */
export interface ConnectionMapping {
  email: string;
  id: string;
  givenName: string | null;
  familyName: string | null;
  groups: string | null;
}

/** The NameID, as a mapping's source. */
export const NAME_ID = 'nameId';

const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/';

/** Each provider's usual attribute names, which an admin may change. */
export const PRESET_MAPPINGS: Record<ConnectionPreset, ConnectionMapping> = {
  okta: { email: 'email', id: NAME_ID, givenName: 'firstName', familyName: 'lastName', groups: 'groups' },
  entra: {
    email: `${CLAIMS}emailaddress`,
    id: 'http://schemas.microsoft.com/identity/claims/objectidentifier',
    givenName: `${CLAIMS}givenname`,
    familyName: `${CLAIMS}surname`,
    groups: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
  },
  // Google Workspace sends the primary e-mail as the NameID; names and groups only when mapped.
  google: { email: NAME_ID, id: NAME_ID, givenName: null, familyName: null, groups: null },
  saml: { email: 'email', id: NAME_ID, givenName: 'givenName', familyName: 'familyName', groups: 'groups' },
  oidc: { email: 'email', id: 'sub', givenName: 'given_name', familyName: 'family_name', groups: 'groups' },
};

/**
 * Why an answer from the provider was refused, told to the admin testing it: the signature (missing,
 * wrong, or by a certificate the connection does not hold), every certificate expired, who it was meant for (audience,
 * recipient, destination), its time (expired, not yet valid, too old), a request this site did not
 * send or already answered, an assertion seen before, an e-mail outside the team's verified domains,
 * a missing attribute, the provider's own refusal (status), or not a SAML answer at all.
 */
export const SAML_PROBLEMS = [
  'signature',
  'certificate',
  'audience',
  'recipient',
  'destination',
  'clock',
  'unknownRequest',
  'unsolicited',
  'replay',
  'domain',
  'missingEmail',
  'status',
  'malformed',
] as const;
export type SamlProblem = (typeof SAML_PROBLEMS)[number];

/**
 * Why an OpenID Connect provider's answer was refused: its configuration could not be read (issuer
 * unreachable, or at an address this server may not call), the code exchange or the ID token failed
 * (signature, issuer, audience, nonce, times — openid-client's checks), or it says the e-mail is not
 * verified; and, as for SAML, the domain, a missing e-mail, the provider's own refusal, a request this
 * site did not send.
 */
export const OIDC_PROBLEMS = ['discovery', 'token', 'unverifiedEmail'] as const;
export type ConnectionProblem = SamlProblem | (typeof OIDC_PROBLEMS)[number];

/** How long a sent request waits for its answer. */
export const SAML_REQUEST_MS = 10 * 60_000;
/** The clock difference between this site and the provider that is tolerated. */
export const SAML_CLOCK_SKEW_MS = 5_000;

/**
 * The most a provider's SAML metadata may weigh, pasted or fetched: real providers' documents are a
 * few kilobytes (Entra ID's, the largest common one, some tens).
 */
export const METADATA_MAX_BYTES = 200 * 1024;

/**
 * Why the provider's details could not be taken from its metadata, each at the field it was given in
 * (`metadataUrl` or `metadataXml`). Fetching: not an http(s) address, plain http where only https is
 * taken, an address inside this site's network, no answer, an error status, too slow, too large, too
 * many redirects. Reading: not SAML metadata, a document type declaration (refused unread), several
 * identity providers, none, no entity ID, no single sign-on service for the HTTP-Redirect binding,
 * one whose address is not https, no signing certificate, a certificate that is none, too many of them.
 */
export const METADATA_PROBLEMS = [
  'invalidUrl',
  'insecureUrl',
  'forbiddenAddress',
  'unreachable',
  'badStatus',
  'timeout',
  'tooLarge',
  'tooManyRedirects',
  'notMetadata',
  'doctype',
  'multipleProviders',
  'noProvider',
  'noEntityId',
  'noRedirectService',
  'invalidSsoUrl',
  'noSigningCertificate',
  'invalidCertificate',
  'tooManyCertificates',
] as const;
export type MetadataProblem = (typeof METADATA_PROBLEMS)[number];
