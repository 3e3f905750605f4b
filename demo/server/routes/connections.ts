import { randomUUID, X509Certificate } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { appUriProblem } from '../../../src/contract/app-uris';
import {
  METADATA_MAX_BYTES,
  PRESET_MAPPINGS,
  type ConnectionMapping,
} from '../../../src/contract/connections';
import {
  addTeamConnectionSchema,
  changeTeamConnectionSchema,
  deleteTeamConnectionSchema,
  listTeamConnectionsSchema,
  testTeamConnectionSchema,
  type ConnectionTest,
  type TeamConnection,
} from '../../../src/contract/schemas/connections';
import type { Permission } from '../../../src/contract/permissions';
import type { TeamConnectionsTable } from '../db/schema';
import { pemOf } from '../lib/certificates';
import { cleanName } from '../lib/names';
import { OidcRefused } from '../lib/oidc-connections';
import { serviceProviderUrls, TEST_RELAY } from '../lib/saml';
import { fetchMetadata, readMetadata, type ProviderDetails } from '../lib/saml-metadata';
import { teamActorOf } from '../plugins/auth';

const NOT_FOUND = { message: 'no such connection', code: 'notFound' } as const;
/**
 * The bodies that may carry pasted metadata take more than the server's usual 64 KB: the metadata's
 * limit, with room for JSON's escapes.
 */
const METADATA_BODY_LIMIT = 2 * METADATA_MAX_BYTES + 64 * 1024;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The connection as its admins see it, with this site's values to give the provider. */
function connectionView(row: TeamConnectionsTable, publicUrl: string): TeamConnection {
  return {
    id: row.id,
    protocol: row.protocol,
    preset: row.preset,
    name: row.name,
    idpEntityId: row.idp_entity_id,
    ssoUrl: row.sso_url,
    certificates: (JSON.parse(row.certificates) as string[]).map((pem) => {
      const cert = new X509Certificate(pem);
      return {
        subject: cert.subject,
        notBefore: new Date(cert.validFrom).toISOString(),
        notAfter: new Date(cert.validTo).toISOString(),
        fingerprint: cert.fingerprint256,
        pem,
      };
    }),
    metadataUrl: row.metadata_url,
    issuer: row.issuer,
    clientId: row.client_id,
    hasClientSecret: row.client_secret !== null,
    mapping: JSON.parse(row.mapping) as ConnectionMapping,
    enabled: row.enabled === 1,
    idpInitiated: row.idp_initiated === 1,
    defaultPermissions: JSON.parse(row.default_permissions) as Permission[],
    testedAt: iso(row.tested_at),
    lastTest: row.last_test ? (JSON.parse(row.last_test) as ConnectionTest) : null,
    createdAt: new Date(row.created_at).toISOString(),
    serviceProvider: serviceProviderUrls(publicUrl, row.id),
  };
}

type Refusal = { message: string; code: string; field: string };

const SAML_FIELDS = ['idpEntityId', 'ssoUrl', 'certificates', 'metadataUrl', 'metadataXml'] as const;
const OIDC_FIELDS = ['issuer', 'clientId', 'clientSecret'] as const;

/**
 * The details a body gives for a connection of `protocol`: another protocol's fields are refused at
 * the first of them; an OpenID Connect issuer must be https (or http to this machine, as a SAML
 * sign-on URL).
 */
function protocolProblem(
  protocol: 'saml' | 'oidc',
  body: Partial<Record<(typeof SAML_FIELDS)[number] | (typeof OIDC_FIELDS)[number], unknown>>,
): Refusal | null {
  const foreign = (protocol === 'saml' ? OIDC_FIELDS : SAML_FIELDS).find(
    (field) => body[field] !== undefined,
  );
  if (foreign)
    return { message: `not a detail of a ${protocol} connection`, code: 'wrongProtocol', field: foreign };
  const issuer = typeof body.issuer === 'string' ? appUriProblem(body.issuer.trim(), 'web') : null;
  if (issuer) return { message: 'not a usable issuer', code: issuer, field: 'issuer' };
  return null;
}

/** The provider's details checked: the refusal at its field, or the certificates as PEM. */
function checkDetails(body: {
  name?: string;
  ssoUrl?: string;
  certificates?: string[];
}): Refusal | { name?: string; certificates?: string[] } {
  const checked: { name?: string; certificates?: string[] } = {};
  if (body.name !== undefined) {
    const name = cleanName(body.name);
    if (!('name' in name)) return { message: name.message, code: 'invalidName', field: 'name' };
    checked.name = name.name;
  }
  if (body.ssoUrl !== undefined) {
    const problem = appUriProblem(body.ssoUrl, 'web');
    if (problem) return { message: 'not a usable sign-on URL', code: problem, field: 'ssoUrl' };
  }
  if (body.certificates) {
    checked.certificates = [];
    for (const [index, text] of body.certificates.entries()) {
      const parsed = pemOf(text);
      if (!parsed)
        return {
          message: 'not an X.509 certificate',
          code: 'invalidCertificate',
          field: `certificates.${index}`,
        };
      checked.certificates.push(parsed.pem);
    }
  }
  return checked;
}

type MetadataInput = {
  idpEntityId?: string;
  ssoUrl?: string;
  certificates?: string[];
  metadataUrl?: string;
  metadataXml?: string;
};

/**
 * The provider's details from the metadata the body gives (`metadataUrl`, fetched now, or
 * `metadataXml`), with the address to keep for a refresh; null when it gives none. One way of giving
 * the details at a time: with the other way too it is refused at the metadata's field.
 */
async function detailsFromMetadata(
  body: MetadataInput,
  fetchOptions: Parameters<typeof fetchMetadata>[1],
): Promise<Refusal | { details: ProviderDetails; metadataUrl: string | null } | null> {
  const { metadataUrl, metadataXml } = body;
  const field = metadataUrl !== undefined ? 'metadataUrl' : metadataXml !== undefined ? 'metadataXml' : null;
  if (field === null) return null;
  const typed =
    body.idpEntityId !== undefined || body.ssoUrl !== undefined || body.certificates !== undefined;
  if (typed || (metadataUrl !== undefined && metadataXml !== undefined))
    return { message: 'give the metadata or the details, not both', code: 'mixedDetails', field };
  const outcome =
    metadataUrl !== undefined
      ? await fetchMetadata(metadataUrl.trim(), fetchOptions)
      : readMetadata(metadataXml ?? '');
  if (!outcome.ok) return { message: outcome.message, code: outcome.problem, field };
  return { details: outcome.details, metadataUrl: metadataUrl?.trim() ?? null };
}

/**
 * A team's connections to its company's identity provider, for its owners and admins: list, add (SAML,
 * from the provider's entity ID, sign-on URL and certificates, typed or read from its metadata), change,
 * remove, and a test sign-in whose answer comes back to the connection's ACS URL (routes/sso.ts). A
 * connection can be turned on only after a test passed since its provider's details last changed.
 */
export const connectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, clock, saml, oidcConnections, config } = app.services;
  // Its IT contact may do it too, through a setup link an owner sent (docs/decisions/setup-links.md).
  const admin = { auth: 'bearer', role: 'admin', setup: true } as const;
  const view = (row: TeamConnectionsTable) => connectionView(row, config.publicUrl);
  const fromMetadata = (body: MetadataInput) =>
    detailsFromMetadata(body, {
      publicUrl: config.publicUrl,
      privateAddresses: config.outboundPrivateAddresses,
    });
  const withMetadata = {
    ...admin,
    body: 'json',
    invalid: { metadataUrl: 'invalidUrl', metadataXml: 'tooLarge' },
  } as const;

  app.get('/api/team/connections', { config: admin, schema: listTeamConnectionsSchema }, async (request) => {
    const rows = await repos.connections.list(teamActorOf(request).teamId);
    return { connections: rows.map(view) };
  });

  app.post(
    '/api/team/connections',
    { config: withMetadata, bodyLimit: METADATA_BODY_LIMIT, schema: addTeamConnectionSchema },
    async (request, reply) => {
      const { teamId, actor } = teamActorOf(request);
      const checked = checkDetails(request.body);
      if ('code' in checked) return reply.code(400).send(checked);
      const protocol = request.body.preset === 'oidc' ? 'oidc' : 'saml';
      const wrong = protocolProblem(protocol, request.body);
      if (wrong) return reply.code(400).send(wrong);
      const metadata = await fromMetadata(request.body);
      if (metadata && 'code' in metadata) return reply.code(400).send(metadata);
      const now = clock.now();
      const { preset, idpEntityId, ssoUrl, issuer, clientId, clientSecret } = request.body;
      const id = randomUUID();
      const row = await repos.connections.create(
        {
          id,
          team_id: teamId,
          protocol,
          issuer: issuer?.trim() || null,
          client_id: clientId?.trim() || null,
          client_secret: clientSecret ? oidcConnections.sealSecret(id, clientSecret.trim()) : null,
          preset,
          name: checked.name!,
          idp_entity_id: metadata ? metadata.details.entityId : idpEntityId?.trim() || null,
          sso_url: metadata ? metadata.details.ssoUrl : (ssoUrl ?? null),
          certificates: JSON.stringify(metadata?.details.certificates ?? checked.certificates ?? []),
          metadata_url: metadata?.metadataUrl ?? null,
          mapping: JSON.stringify(PRESET_MAPPINGS[preset]),
          idp_initiated: 0,
          enabled: 0,
          default_permissions: '[]',
          created_at: now,
          updated_at: now,
        },
        actor,
      );
      return reply.code(201).send(view(row));
    },
  );

  app.patch(
    '/api/team/connections/:id',
    { config: withMetadata, bodyLimit: METADATA_BODY_LIMIT, schema: changeTeamConnectionSchema },
    async (request, reply) => {
      const { teamId, actor } = teamActorOf(request);
      const row = await repos.connections.ofTeam(teamId, request.params.id);
      if (!row) return reply.code(404).send(NOT_FOUND);
      const body = request.body;
      const checked = checkDetails(body);
      if ('code' in checked) return reply.code(400).send(checked);
      const wrong = protocolProblem(row.protocol, body);
      if (wrong) return reply.code(400).send(wrong);
      // Ownership is given by an owner, to a person, never to whoever signs in next.
      if (body.defaultPermissions?.includes('OWNER'))
        return reply.code(400).send({
          message: 'a connection cannot make owners',
          code: 'ownerNotAllowed',
          field: 'defaultPermissions',
        });
      const metadata = await fromMetadata(body);
      if (metadata && 'code' in metadata) return reply.code(400).send(metadata);
      // The provider's details as typed, or as its metadata gives them: the same rules either way.
      const given = metadata
        ? {
            idpEntityId: metadata.details.entityId,
            ssoUrl: metadata.details.ssoUrl,
            certificates: metadata.details.certificates,
          }
        : { idpEntityId: body.idpEntityId?.trim(), ssoUrl: body.ssoUrl, certificates: checked.certificates };
      const changes: Partial<TeamConnectionsTable> = {};
      if (checked.name !== undefined) changes.name = checked.name;
      if (given.certificates) changes.certificates = JSON.stringify(given.certificates);
      // Another provider, or other claims: what was tested is not what would sign people in.
      // An OpenID Connect provider's issuer and client; a new secret is a rotation, like a certificate.
      const issuer = body.issuer?.trim();
      const clientId = body.clientId?.trim();
      if (issuer !== undefined) changes.issuer = issuer;
      if (clientId !== undefined) changes.client_id = clientId;
      if (body.clientSecret !== undefined)
        changes.client_secret = oidcConnections.sealSecret(row.id, body.clientSecret.trim());
      const retest =
        (issuer !== undefined && issuer !== row.issuer) ||
        (clientId !== undefined && clientId !== row.client_id) ||
        (given.idpEntityId !== undefined && given.idpEntityId !== row.idp_entity_id) ||
        (given.ssoUrl !== undefined && given.ssoUrl !== row.sso_url) ||
        (body.mapping !== undefined && JSON.stringify(body.mapping) !== row.mapping);
      if (given.idpEntityId !== undefined) changes.idp_entity_id = given.idpEntityId;
      if (given.ssoUrl !== undefined) changes.sso_url = given.ssoUrl;
      // The kept metadata address is where the details come from until they are typed or pasted.
      if (metadata) changes.metadata_url = metadata.metadataUrl;
      else if (given.idpEntityId !== undefined || given.ssoUrl !== undefined || given.certificates)
        changes.metadata_url = null;
      if (body.mapping !== undefined) changes.mapping = JSON.stringify(body.mapping);
      if (body.idpInitiated !== undefined) changes.idp_initiated = body.idpInitiated ? 1 : 0;
      if (body.defaultPermissions !== undefined)
        changes.default_permissions = JSON.stringify([...new Set(body.defaultPermissions)]);
      if (retest) Object.assign(changes, { tested_at: null, enabled: 0 });
      let action: 'connection.changed' | 'connection.enabled' | 'connection.disabled' = 'connection.changed';
      if (body.enabled === true && !retest) {
        if (row.tested_at === null)
          return reply.code(409).send({ message: 'test the connection first', code: 'notTested' });
        changes.enabled = 1;
        if (row.enabled === 0) action = 'connection.enabled';
      } else if (body.enabled === false || (retest && row.enabled === 1)) {
        changes.enabled = 0;
        if (row.enabled === 1) action = 'connection.disabled';
      }
      const saved = await repos.connections.change(row, changes, actor, action, clock.now());
      if (!saved) return reply.code(404).send(NOT_FOUND);
      return view(saved);
    },
  );

  app.delete(
    '/api/team/connections/:id',
    { config: admin, schema: deleteTeamConnectionSchema },
    async (request, reply) => {
      const { teamId, actor } = teamActorOf(request);
      const row = await repos.connections.ofTeam(teamId, request.params.id);
      if (!row || !(await repos.connections.remove(row, actor, clock.now())))
        return reply.code(404).send(NOT_FOUND);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/team/connections/:id/test',
    { config: admin, schema: testTeamConnectionSchema },
    async (request, reply) => {
      const row = await repos.connections.ofTeam(teamActorOf(request).teamId, request.params.id);
      if (!row) return reply.code(404).send(NOT_FOUND);
      const complete =
        row.protocol === 'oidc'
          ? row.issuer && row.client_id && row.client_secret
          : row.idp_entity_id && row.sso_url && row.certificates !== '[]';
      if (!complete)
        return reply
          .code(409)
          .send({ message: "the provider's details are not all there", code: 'incomplete' });
      if (row.protocol === 'saml') return { url: await saml.start(row, 'test', { relayPrefix: TEST_RELAY }) };
      try {
        return { url: await oidcConnections.start(row, 'test') };
      } catch (error) {
        if (!(error instanceof OidcRefused)) throw error;
        // The provider's configuration could not be read: that is the test's result.
        const detail = error.message;
        const at = new Date(clock.now()).toISOString();
        const result = { at, ok: false, problem: 'discovery', detail, claims: null } as const;
        await repos.connections.recordTest(row.id, result, false, clock.now());
        return reply.code(409).send({ message: detail, code: 'discovery' });
      }
    },
  );
};
