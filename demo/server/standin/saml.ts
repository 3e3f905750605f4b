import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
// The default import: under Node's ESM the namespace misses SamlLib (an export behind a getter).
import samlify from 'samlify';
import { DEMO_SAML_CONNECTION } from '../db/seed';
import { escapeHtml } from '../lib/plain-page';
import { serviceProviderUrls } from '../lib/saml';
import { readForm, STANDIN_CSP, standInPage } from './page';

/**
 * The demo's stand-in SAML 2.0 identity provider (samlify's IdentityProvider) on its own loopback
 * port, for initrode's connection: `GET /sso` takes the portal's AuthnRequest (HTTP-Redirect binding)
 * and shows a plain sign-in form — type an account name and continue — whose answer goes back by
 * HTTP-POST with a signed assertion. Its key and certificate are made at each start (openssl), so the
 * seed points the connection at them then. Mounted only in demo mode.
 */

const { binding, names, format, authnContextClassRef } = samlify.Constants.namespace;
const BASIC = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';
/** How long an answer may take to reach the portal. */
const ANSWER_MS = 5 * 60_000;

interface Person {
  email: string;
  givenName: string;
  familyName: string;
  groups: string[];
}

/**
 * The stand-in's people. Another name signs in too, as `<name>@initrode.test` with no name or groups
 * (an address as typed, if it is one).
 */
export const SAML_STANDIN_PEOPLE: Record<string, Person> = {
  michael: {
    email: 'michael@initrode.test',
    givenName: 'Michael',
    familyName: 'Bolton',
    groups: ['Engineering'],
  },
  // A group the team does not have is left out.
  samir: {
    email: 'samir@initrode.test',
    givenName: 'Samir',
    familyName: 'Nagheenanajar',
    groups: ['Engineering', 'Facilities'],
  },
  // Outside the team's verified domains: the portal refuses the answer.
  eve: { email: 'eve@outside.test', givenName: 'Eve', familyName: 'Outsider', groups: [] },
};

function personFor(login: string): Person {
  return (
    SAML_STANDIN_PEOPLE[login] ?? {
      email: login.includes('@') ? login : `${login}@${DEMO_SAML_CONNECTION.domain}`,
      givenName: '',
      familyName: '',
      groups: [],
    }
  );
}

/** A signing key and its self-signed certificate (PEM), made by openssl, valid for `days`. */
export function signingPair(days = 2, subject = '/CN=Test IdP'): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'acct-idp-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        String(days),
        '-subj',
        subject,
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the portal asked: the request's id, and its service provider's entity ID and ACS URL. */
interface AuthnRequest {
  id: string;
  issuer: string;
  acsUrl: string;
}

/**
 * The AuthnRequest of the HTTP-Redirect binding's `SAMLRequest` (deflated, base64), if it is one of
 * the portal's: a real provider answers only the service providers registered with it, at their own
 * ACS URL — here, the portal's connections.
 */
function readRequest(samlRequest: string, publicUrl: string): AuthnRequest | null {
  const fail = (message: string) => {
    throw new Error(message);
  };
  let root: Element | null;
  try {
    const xml = inflateRawSync(Buffer.from(samlRequest, 'base64'), { maxOutputLength: 64 * 1024 });
    root = new DOMParser({
      errorHandler: { warning: () => {}, error: fail, fatalError: fail },
    }).parseFromString(xml.toString('utf8'), 'text/xml').documentElement;
  } catch {
    return null;
  }
  if (root?.namespaceURI !== names.protocol || root.localName !== 'AuthnRequest') return null;
  const id = root.getAttribute('ID') ?? '';
  const issuer = root.getElementsByTagNameNS(names.assertion, 'Issuer')[0]?.textContent?.trim() ?? '';
  const acsUrl = root.getAttribute('AssertionConsumerServiceURL') ?? '';
  const prefix = `${publicUrl}/saml/`;
  if (!id || !issuer.startsWith(prefix)) return null;
  const expected = serviceProviderUrls(publicUrl, decodeURIComponent(issuer.slice(prefix.length)));
  return expected.entityId === issuer && expected.acsUrl === acsUrl ? { id, issuer, acsUrl } : null;
}

const attribute = (name: string, values: string[]) =>
  `<saml:Attribute Name="${name}" NameFormat="${BASIC}">${values
    .map((value) => `<saml:AttributeValue xsi:type="xs:string">${escapeHtml(value)}</saml:AttributeValue>`)
    .join('')}</saml:Attribute>`;

export interface SamlStandIn {
  /** Where it listens, e.g. http://localhost:8086. */
  url: string;
  entityId: string;
  ssoUrl: string;
  /** The certificate it signs with (PEM). */
  cert: string;
  close(): Promise<void>;
}

/** Start the stand-in SAML provider for the portal at `publicUrl` (port 0 = any free port). */
export async function startSamlStandIn(publicUrl: string, port: number): Promise<SamlStandIn> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, 'localhost', () => resolve());
  });
  // As the other stand-ins: one left listening alone must not keep the process alive.
  server.unref();
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  const entityId = `${url}/metadata`;
  const ssoUrl = `${url}/sso`;
  const pair = signingPair(365, '/CN=Initrode stand-in IdP');
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    signingCert: pair.cert,
    privateKey: pair.key,
    nameIDFormat: [format.emailAddress],
    singleSignOnService: [{ Binding: binding.redirect, Location: ssoUrl }],
    // It keeps no session: signing out there is done already (see the page).
    singleLogoutService: [{ Binding: binding.redirect, Location: `${url}/slo` }],
  });

  /** The base64 SAMLResponse for `person`, its assertion signed (the connection wants that). */
  async function answer(request: AuthnRequest, person: Person): Promise<string> {
    const now = new Date();
    const later = new Date(now.getTime() + ANSWER_MS).toISOString();
    const sp = samlify.ServiceProvider({
      entityID: request.issuer,
      assertionConsumerService: [{ Binding: binding.post, Location: request.acsUrl }],
      wantAssertionsSigned: true,
    });
    const statement = `<saml:AttributeStatement>${[
      attribute('email', [person.email]),
      ...(person.givenName ? [attribute('givenName', [person.givenName])] : []),
      ...(person.familyName ? [attribute('familyName', [person.familyName])] : []),
      ...(person.groups.length ? [attribute('groups', person.groups)] : []),
    ].join('')}</saml:AttributeStatement>`;
    const authn = `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>${authnContextClassRef.passwordProtectedTransport}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;
    const { context } = await idp.createLoginResponse(
      sp,
      { extract: { request: { id: request.id } } },
      'post',
      { email: person.email },
      {
        // Given a replacement, samlify fills in nothing itself: every value is here, escaped by its
        // replacement, but for the two statements, which are XML.
        customTagReplacement: (template: string) => {
          const id = `_${randomUUID()}`;
          const xml = template.replace('{AuthnStatement}', authn).replace('{AttributeStatement}', statement);
          const context = samlify.SamlLib.replaceTagsByValue(xml, {
            ID: id,
            AssertionID: `_${randomUUID()}`,
            Destination: request.acsUrl,
            Audience: request.issuer,
            SubjectRecipient: request.acsUrl,
            Issuer: entityId,
            IssueInstant: now.toISOString(),
            StatusCode: samlify.Constants.StatusCode.Success,
            ConditionsNotBefore: now.toISOString(),
            ConditionsNotOnOrAfter: later,
            SubjectConfirmationDataNotOnOrAfter: later,
            NameIDFormat: format.emailAddress,
            NameID: person.email,
            InResponseTo: request.id,
          });
          return { id, context };
        },
      },
    );
    return context;
  }

  function signInPage(res: ServerResponse, samlRequest: string, relayState: string) {
    const people = Object.entries(SAML_STANDIN_PEOPLE)
      .map(
        ([login, p]) =>
          `<li><code>${escapeHtml(login)}</code> — ${escapeHtml(`${p.givenName} ${p.familyName}`)}, ${escapeHtml(p.email)}${p.groups.length ? ` (${escapeHtml(p.groups.join(', '))})` : ''}</li>`,
      )
      .join('');
    standInPage(
      res,
      'Initrode (stand-in) — sign in',
      `<main><h1>Sign in to Initrode</h1><p>This is the demo's stand-in for a company's SAML identity provider.</p><form method="post" action="/sso"><input type="hidden" name="SAMLRequest" value="${escapeHtml(samlRequest)}"><input type="hidden" name="RelayState" value="${escapeHtml(relayState)}"><label for="login">Account</label><input id="login" name="login" autocomplete="username" aria-describedby="people" required autofocus><p id="people">Type one of these names, or any other (it signs in as <code>name@${escapeHtml(DEMO_SAML_CONNECTION.domain)}</code>):</p><ul>${people}</ul><button type="submit">Continue</button></form></main>`,
    );
  }

  /** The answer, posted to the portal by the browser: by the page's script, or by the button. */
  function answerPage(res: ServerResponse, request: AuthnRequest, samlResponse: string, relayState: string) {
    const nonce = randomBytes(16).toString('base64');
    standInPage(
      res,
      'Initrode (stand-in) — signing in',
      `<main><h1>Signing you in</h1><p>Taking your sign-in back to the portal.</p><form method="post" action="${escapeHtml(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">${relayState ? `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">` : ''}<button type="submit" autofocus>Continue</button></form><script nonce="${nonce}">document.forms[0].submit();</script></main>`,
      `${STANDIN_CSP}; script-src 'nonce-${nonce}'`,
    );
  }

  const refuse = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(message);
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const { pathname, searchParams } = new URL(req.url ?? '/', url);
    if (req.method === 'GET' && pathname === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
      res.end(idp.getMetadata());
      return;
    }
    if (pathname === '/slo')
      return standInPage(
        res,
        'Initrode (stand-in) — signed out',
        '<main><h1>Signed out</h1><p>The stand-in keeps no session: there is nothing to sign out of.</p></main>',
      );
    if (pathname !== '/sso' || (req.method !== 'GET' && req.method !== 'POST'))
      return refuse(res, 404, 'not found');
    const form = req.method === 'POST' ? await readForm(req) : searchParams;
    const samlRequest = form.get('SAMLRequest') ?? '';
    const relayState = form.get('RelayState') ?? '';
    const request = readRequest(samlRequest, publicUrl);
    if (!request) return refuse(res, 400, 'not a sign-in request of the portal');
    if (req.method === 'GET') return signInPage(res, samlRequest, relayState);
    const login = (form.get('login') ?? '').trim().toLowerCase();
    // A name, or an address: what the portal takes for one.
    if (!/^[a-z0-9._+-]{1,64}(@[a-z0-9.-]{1,190})?$/.test(login))
      return refuse(res, 400, 'type an account name, or an e-mail address');
    answerPage(res, request, await answer(request, personFor(login)), relayState);
  }

  server.on('request', (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  return {
    url,
    entityId,
    ssoUrl,
    cert: pair.cert,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
