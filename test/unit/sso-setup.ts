import { expect } from 'chai';
import {
  addTeamConnection,
  changeTeamConnection,
  startConnectionTest,
  type TeamConnection,
} from '../../src/api/connections';
import { addTeamDomain, setDomainSignIn, verifyTeamDomain } from '../../src/api/domains';
import { sessionStore } from '../../src/state/session';
import { publishTxt, signInAs } from './support';

const authorized = <T>(call: Parameters<ReturnType<typeof sessionStore.getState>['authorized']>[0]) =>
  sessionStore.getState().authorized(call) as Promise<T>;

/**
 * As acme's owner, through the real API: a fresh domain of acme's, verified through the loopback DNS
 * server, and a SAML connection to the test server's identity provider, tested — and, with `route`,
 * turned on and named as the domain's way to sign in. A fresh domain routes nobody else's sign-in.
 */
export async function ssoSetup({ route = true } = {}): Promise<{
  domain: string;
  connection: TeamConnection;
}> {
  await signInAs('ada@acme.test');
  const domain = `sso-${crypto.randomUUID().slice(0, 8)}.example`;
  const added = await authorized<{ recordName: string; recordValue: string }>((ctx) =>
    addTeamDomain(ctx, domain),
  );
  await publishTxt(added.recordName, added.recordValue);
  await authorized((ctx) => verifyTeamDomain(ctx, domain));
  const idp = (await (await fetch('/__test/saml-idp')).json()) as {
    entityId: string;
    ssoUrl: string;
    certificate: string;
  };
  let connection = await authorized<TeamConnection>((ctx) =>
    addTeamConnection(ctx, {
      preset: 'saml',
      name: `IdP ${domain}`,
      idpEntityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificates: [idp.certificate],
    }),
  );
  if (route) {
    // The test sign-in, answered by the provider for an address at the domain, lets it be turned on.
    const url = await authorized<string>((ctx) => startConnectionTest(ctx, connection.id));
    const query = new URLSearchParams({ url, email: `someone@${domain}` });
    const answer = (await (await fetch(`/__test/saml-idp?${query.toString()}`)).json()) as Record<
      string,
      string
    >;
    await fetch(new URL(answer.action!).pathname, {
      method: 'POST',
      body: new URLSearchParams({ SAMLResponse: answer.SAMLResponse!, RelayState: answer.RelayState! }),
      redirect: 'manual',
    });
    connection = await authorized<TeamConnection>((ctx) =>
      changeTeamConnection(ctx, connection.id, { enabled: true }),
    );
    expect(connection.enabled).to.equal(true);
    await authorized((ctx) =>
      setDomainSignIn(ctx, domain, { connectionId: connection.id, requireSso: false }),
    );
  }
  return { domain, connection };
}
