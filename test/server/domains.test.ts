/**
 * A team's e-mail domains (routes/domains.ts): who may manage them, what is refused and at which field,
 * one team per domain, and verification through a real DNS server on loopback (test/support/dns.ts)
 * reached by the server's resolver through DNS_SERVERS — the record found, missing, wrong, split in
 * several strings, and a server that does not answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TeamDomain, TeamDomainList } from '../../src/contract/schemas/domains';
import { TestDns } from '../support/dns';
import { TestSmtp } from '../support/smtp';
import { api, callers, expectError, type Callers } from '../support/team-admin';
import { createTestApp, type TestApp } from '../support/test-server';

let t: TestApp;
let dns: TestDns;
let smtp: TestSmtp;
let who: Callers;
before(async () => {
  dns = await TestDns.start();
  smtp = await TestSmtp.start();
  t = await createTestApp({ DNS_SERVERS: dns.address, SMTP_URL: smtp.url });
  who = await callers(t);
});
after(async () => {
  await t.close();
  await dns.close();
  await smtp.close();
});

const DAY = 24 * 3600_000;
/** A day passes: the clock moves on, the tokens are renewed, and the daily check runs once. */
async function aDayLater() {
  t.clock.advance(DAY);
  who = await callers(t);
  return t.app.services.domainWatch.round();
}
const stateOf = async (domain: string) =>
  ((await api(t, 'GET', '/api/team/domains', who.owner)).json() as TeamDomainList).domains.find(
    (d) => d.domain === domain,
  );

let counter = 0;
/** A fresh domain of acme's, added by its owner. */
async function added(token = who.owner): Promise<TeamDomain> {
  const response = await api(t, 'POST', '/api/team/domains', token, { domain: `acme-${++counter}.test` });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as TeamDomain;
}
const verify = (domain: string, token = who.owner) =>
  api(t, 'POST', `/api/team/domains/${domain}/verify`, token);
const publish = (domain: TeamDomain, ...values: Array<string | string[]>) =>
  dns.txt.set(domain.recordName, values.length ? values : [domain.recordValue]);

describe('who may manage the team’s domains', () => {
  it('refuses without a token (401) and a member (403 notAdmin) on every call', async () => {
    const { domain } = await added();
    for (const [method, url, body] of [
      ['GET', '/api/team/domains', undefined],
      ['POST', '/api/team/domains', { domain: 'nope.test' }],
      ['POST', `/api/team/domains/${domain}/verify`, undefined],
      ['DELETE', `/api/team/domains/${domain}`, undefined],
    ] as const) {
      expectError(await api(t, method, url, undefined, body), 401);
      expectError(await api(t, method, url, who.member, body), 403, 'notAdmin');
    }
  });

  it('answers another team’s admin 404 for acme’s domains, and lists only their own', async () => {
    const mine = await added();
    publish(mine);
    expectError(await verify(mine.domain, who.otherAdmin), 404, 'notFound');
    expectError(await api(t, 'DELETE', `/api/team/domains/${mine.domain}`, who.otherAdmin), 404, 'notFound');
    const theirs = (await api(t, 'GET', '/api/team/domains', who.otherAdmin)).json() as TeamDomainList;
    assert.ok(!theirs.domains.some((d) => d.domain === mine.domain));
    const ours = (await api(t, 'GET', '/api/team/domains', who.owner)).json() as TeamDomainList;
    assert.equal(ours.domains.find((d) => d.domain === mine.domain)?.state, 'pending', 'untouched');
  });

  it('lets an admin who is not an owner add, verify and remove', async () => {
    const domain = await added(who.admin);
    publish(domain);
    assert.equal((await verify(domain.domain, who.admin)).statusCode, 200);
    assert.equal((await api(t, 'DELETE', `/api/team/domains/${domain.domain}`, who.admin)).statusCode, 204);
  });
});

describe('adding a domain', () => {
  it('shows the record to publish: a 128-bit token under _acct-challenge', async () => {
    const one = await added();
    const two = await added();
    assert.equal(one.state, 'pending');
    assert.equal(one.recordName, `_acct-challenge.${one.domain}`);
    assert.match(one.recordValue, /^acct-verification=[0-9a-f]{32}$/);
    assert.notEqual(one.recordValue, two.recordValue, 'a token per domain');
    assert.equal(one.verifiedAt, null);
    assert.equal(Date.parse(one.expiresAt!) - Date.parse(one.createdAt), 7 * 24 * 3600_000);
  });

  it('keeps the domain in lower case and ASCII, without a final dot', async () => {
    const response = await api(t, 'POST', '/api/team/domains', who.owner, { domain: ' Bücher-Acme.TEST. ' });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal((response.json() as TeamDomain).domain, 'xn--bcher-acme-9db.test');
  });

  it('refuses what is not a domain at the field', async () => {
    for (const domain of [
      'localhost',
      'https://acme.test',
      'acme.test/path',
      'ada@acme.test',
      'acme.test:443',
      '10.0.0.1',
      '-acme.test',
      'acme..test',
      `${'a'.repeat(64)}.test`,
      ' ',
    ]) {
      const response = await api(t, 'POST', '/api/team/domains', who.owner, { domain });
      expectError(response, 400, 'invalidDomain', 'domain');
    }
  });

  it('refuses a public mail service’s domain', async () => {
    for (const domain of ['gmail.com', 'Outlook.com', 'gmx.de'])
      expectError(
        await api(t, 'POST', '/api/team/domains', who.owner, { domain }),
        400,
        'publicDomain',
        'domain',
      );
  });

  it('lets a claim block nobody: another team may claim it too, and the first to prove it has it', async () => {
    const mine = await added();
    expectError(
      await api(t, 'POST', '/api/team/domains', who.owner, { domain: mine.domain }),
      409,
      'domainTaken',
      'domain',
    );
    // A squatter's claim, never proven, does not keep the company's own team out.
    const theirs = await api(t, 'POST', '/api/team/domains', who.otherAdmin, { domain: mine.domain });
    assert.equal(theirs.statusCode, 201, theirs.body);
    const theirClaim = theirs.json() as TeamDomain;
    assert.notEqual(theirClaim.recordValue, mine.recordValue, 'a token per claim');
    // Both records published: the first to verify has it; the other's verify and a new claim are refused.
    publish(mine, mine.recordValue, theirClaim.recordValue);
    assert.equal(((await verify(mine.domain)).json() as TeamDomain).state, 'verified');
    expectError(await verify(mine.domain, who.otherAdmin), 409, 'domainTaken', 'domain');
    // Once it is verified, no other team can claim it.
    assert.equal(
      (await api(t, 'DELETE', `/api/team/domains/${mine.domain}`, who.otherAdmin)).statusCode,
      204,
    );
    expectError(
      await api(t, 'POST', '/api/team/domains', who.otherAdmin, { domain: mine.domain }),
      409,
      'domainTaken',
      'domain',
    );
  });

  it('gives a domain two teams prove at once to one of them', async () => {
    const domain = `race-${++counter}.test`;
    const claims = await Promise.all(
      [who.owner, who.otherAdmin].map(async (token) => {
        const response = await api(t, 'POST', '/api/team/domains', token, { domain });
        assert.equal(response.statusCode, 201, response.body);
        return response.json() as TeamDomain;
      }),
    );
    publish(claims[0]!, ...claims.map((claim) => claim.recordValue));
    const answers = await Promise.all([verify(domain, who.owner), verify(domain, who.otherAdmin)]);
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409]);
  });
});

describe('the database', () => {
  it('keeps a second verified row of a domain out, whatever the code above it does', async () => {
    const teams = await t.db.kysely.selectFrom('teams').select('id').orderBy('id').limit(2).execute();
    const row = (teamId: string, state: 'verified' | 'pending') => ({
      domain: `index-${++counter}.test`,
      team_id: teamId,
      token: 'token',
      state,
      created_at: 1,
      verified_at: null,
      checked_at: null,
      last_problem: null,
      missing_since: null,
      connection_id: null,
      require_sso: 0,
      auto_join: 0,
    });
    const first = row(teams[0]!.id, 'verified');
    await t.db.kysely.insertInto('team_domains').values(first).execute();
    await assert.rejects(
      t.db.kysely
        .insertInto('team_domains')
        .values({ ...row(teams[1]!.id, 'verified'), domain: first.domain })
        .execute(),
      (error: { code?: string }) => ['SQLITE_CONSTRAINT_UNIQUE', '23505'].includes(error.code ?? ''),
    );
    // A claim beside it is allowed (it will be refused when it tries to verify).
    await t.db.kysely
      .insertInto('team_domains')
      .values({ ...row(teams[1]!.id, 'pending'), domain: first.domain })
      .execute();
  });
});

describe('verifying a domain through DNS', () => {
  it('stays pending, saying the record was not found, until it is published', async () => {
    const domain = await added();
    const before = (await verify(domain.domain)).json() as TeamDomain;
    assert.equal(before.state, 'pending');
    assert.equal(before.lastProblem, 'recordNotFound');
    assert.ok(before.checkedAt);
    publish(domain);
    const after = (await verify(domain.domain)).json() as TeamDomain;
    assert.equal(after.state, 'verified');
    assert.equal(after.lastProblem, null);
    assert.ok(after.verifiedAt);
    assert.equal(after.expiresAt, null);
  });

  it('refuses a record with another token, or another team’s', async () => {
    const domain = await added();
    const other = await added();
    publish(domain, 'acct-verification=0123456789abcdef0123456789abcdef', other.recordValue);
    const answer = (await verify(domain.domain)).json() as TeamDomain;
    assert.equal(answer.state, 'pending');
    assert.equal(answer.lastProblem, 'recordNotFound');
  });

  it('finds the record among others, and one split into several strings', async () => {
    const domain = await added();
    publish(domain, 'v=spf1 -all', domain.recordValue);
    assert.equal(((await verify(domain.domain)).json() as TeamDomain).state, 'verified');
    const split = await added();
    publish(split, [split.recordValue.slice(0, 20), split.recordValue.slice(20)]);
    assert.equal(((await verify(split.domain)).json() as TeamDomain).state, 'verified');
  });

  it('says the lookup failed when the DNS server does not answer, within a bounded time', async () => {
    const domain = await added();
    publish(domain);
    dns.silent = true;
    const started = Date.now();
    try {
      const answer = (await verify(domain.domain)).json() as TeamDomain;
      assert.equal(answer.state, 'pending');
      assert.equal(answer.lastProblem, 'lookupFailed');
    } finally {
      dns.silent = false;
    }
    assert.ok(Date.now() - started < 15_000, 'the resolver gives up');
  });

  it('shows a pending domain unproven for seven days as failed; proving it later still works', async () => {
    const domain = await added();
    t.clock.advance(7 * 24 * 3600_000);
    who = await callers(t); // the tokens of seven days ago have expired
    const list = (await api(t, 'GET', '/api/team/domains', who.owner)).json() as TeamDomainList;
    assert.equal(list.domains.find((d) => d.domain === domain.domain)?.state, 'failed');
    publish(domain);
    assert.equal(((await verify(domain.domain)).json() as TeamDomain).state, 'verified');
  });

  it('answers 404 for a domain the team does not hold', async () => {
    expectError(await verify('nobody.test'), 404, 'notFound');
    expectError(await verify('not a domain'), 404, 'notFound');
    expectError(await api(t, 'DELETE', '/api/team/domains/nobody.test', who.owner), 404, 'notFound');
  });
});

describe('the daily check', () => {
  it('verifies a pending domain by itself once its record appears', async () => {
    const domain = await added();
    await aDayLater();
    assert.equal((await stateOf(domain.domain))?.state, 'pending');
    publish(domain);
    await aDayLater();
    const now = await stateOf(domain.domain);
    assert.equal(now?.state, 'verified');
    const log = await api(t, 'GET', '/api/team/audit?kind=domain&limit=50', who.owner);
    const event = (
      log.json() as { events: Array<{ action: string; target: string; actor: unknown }> }
    ).events.find((e) => e.target === domain.domain && e.action === 'domain.verified');
    assert.equal(event?.actor, null, 'the check, not a member, verified it');
  });

  it('looks each due domain up once a day, and not again within the day', async () => {
    const domain = await added();
    publish(domain);
    await aDayLater();
    const before = dns.questions;
    assert.equal(await t.app.services.domainWatch.round(), 0, 'nothing due within the day');
    assert.equal(dns.questions, before);
  });

  it('keeps a verified domain through three days of a missing record, then unverifies it and mails the owners', async () => {
    const domain = await added();
    publish(domain);
    assert.equal(((await verify(domain.domain)).json() as TeamDomain).state, 'verified');
    dns.txt.delete(domain.recordName);
    await aDayLater();
    const missing = await stateOf(domain.domain);
    assert.equal(missing?.state, 'verified', 'a grace period first');
    assert.ok(missing?.missingSince);
    assert.equal(missing?.lastProblem, 'recordNotFound');
    await aDayLater();
    await aDayLater();
    assert.equal((await stateOf(domain.domain))?.state, 'verified', 'two days missing: still in grace');
    await aDayLater();
    assert.equal((await stateOf(domain.domain))?.state, 'unverified');
    const mail = await smtp.next(
      'ada@acme.test',
      new RegExp(`${domain.domain.replace('.', '\\.')}.*no longer verified`),
    );
    assert.match(mail.text, new RegExp(domain.recordValue));
    assert.ok(
      !smtp.received.some((m) => m.to.includes('bob@acme.test') && m.subject.includes(domain.domain)),
      'owners only',
    );
    // The record back: verified again, nothing missing.
    publish(domain);
    assert.equal(((await verify(domain.domain)).json() as TeamDomain).state, 'verified');
    assert.equal((await stateOf(domain.domain))?.missingSince, null);
  });

  it('forgives a record that comes back within the grace period', async () => {
    const domain = await added();
    publish(domain);
    await verify(domain.domain);
    dns.txt.delete(domain.recordName);
    await aDayLater();
    publish(domain);
    await aDayLater();
    const back = await stateOf(domain.domain);
    assert.equal(back?.state, 'verified');
    assert.equal(back?.missingSince, null);
  });

  it('starts no grace period while the DNS server does not answer', async () => {
    const domain = await added();
    publish(domain);
    await verify(domain.domain);
    // Only this domain is due (each unanswered lookup waits out the resolver's timeout).
    await t.db.kysely.deleteFrom('team_domains').where('domain', '!=', domain.domain).execute();
    dns.silent = true;
    try {
      assert.equal(await aDayLater(), 1);
    } finally {
      dns.silent = false;
    }
    const still = await stateOf(domain.domain);
    assert.equal(still?.state, 'verified');
    assert.equal(still?.missingSince, null, 'no answer is not a missing record');
    assert.equal(still?.lastProblem, 'lookupFailed');
  });
});

describe('the audit trail', () => {
  it('records adding, verifying and removing, with who did it', async () => {
    const domain = await added();
    publish(domain);
    await verify(domain.domain);
    await api(t, 'DELETE', `/api/team/domains/${domain.domain}`, who.owner);
    const log = await api(t, 'GET', '/api/team/audit?kind=domain&limit=50', who.owner);
    const events = (log.json() as { events: Array<{ action: string; target: string; actor: unknown }> })
      .events;
    const mine = events.filter((event) => event.target === domain.domain).map((event) => event.action);
    assert.deepEqual(mine, ['domain.removed', 'domain.verified', 'domain.added']);
  });
});
