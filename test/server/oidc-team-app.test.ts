/**
 * A team's own app (`team` in its client metadata): its sign-in goes straight to that team's screen,
 * and a member of another team signed in to the portal gets an error for the app, never a code.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../demo/server/config';
import { InjectBrowser } from '../support/inject-browser';
import { createTestApp, sessionFor, type TestApp } from '../support/test-server';

const CLIENT = 'globex-planner';
const REDIRECT = 'https://planner.globex.test/callback';
const ISSUER = 'http://localhost:8080';
const client = {
  client_id: CLIENT,
  team: 'globex',
  redirect_uris: [REDIRECT],
  token_endpoint_auth_method: 'none',
};

describe('a team’s own app', () => {
  let t: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'oidc-team-app-'));
  const file = join(dir, 'clients.json');
  before(async () => {
    writeFileSync(file, JSON.stringify([client]));
    t = await createTestApp({ OIDC_CLIENTS_FILE: file });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const authorize = () => {
    const verifier = randomBytes(32).toString('base64url');
    return `/oidc/auth?${new URLSearchParams({
      client_id: CLIENT,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid email',
      state: 'team-app-state',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    })}`;
  };

  it('sends a signed-out user to its team’s sign-in screen, not the team step', async () => {
    const { location } = await new InjectBrowser(t.app, ISSUER).follow(authorize());
    assert.equal(location?.pathname, '/login/globex');
    assert.match(location!.searchParams.get('ReturnUrl')!, /^\/oidc\/interaction\//);
  });

  it('gives another team’s member an error for the app, never a code', async () => {
    const ada = await sessionFor(t.app, 'ada@acme.test');
    const { location } = await new InjectBrowser(t.app, ISSUER, ada.cookie).follow(authorize());
    assert.equal(`${location?.origin}${location?.pathname}`, REDIRECT);
    assert.equal(location!.searchParams.get('error'), 'access_denied');
    assert.match(location!.searchParams.get('error_description')!, /globex/);
    assert.equal(location!.searchParams.get('code'), null);
    assert.equal(location!.searchParams.get('state'), 'team-app-state');
    assert.equal(location!.searchParams.get('iss'), ISSUER);
  });

  it('signs its own team’s member in', async () => {
    const carol = await sessionFor(t.app, 'carol@globex.test');
    const { location } = await new InjectBrowser(t.app, ISSUER, carol.cookie).follow(authorize());
    assert.equal(`${location?.origin}${location?.pathname}`, REDIRECT);
    assert.ok(location!.searchParams.get('code'));
  });

  it('refuses a team that is not a team’s name at start', () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify([{ ...client, team: 'Globex Corp' }]));
    assert.throws(
      () => loadConfig({ OIDC_CLIENTS_FILE: join(dir, 'bad.json'), DATA_DIR: dir }),
      (error: unknown) => error instanceof ConfigError && /team must be a team's name/.test(error.message),
    );
  });
});
