import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { OutboxMailer } from '../../demo/server/lib/mailer';
import { createTestApp, type TestApp } from '../support/test-server';
import { proofFor } from '../support/proof';

/**
 * The demo outbox lists live reset links, so it must never be readable by anyone but the person
 * running the demo on their own machine.
 */
async function withApp(env: Record<string, string>, run: (t: TestApp) => Promise<void>) {
  const t = await createTestApp(env);
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

const outbox = (t: TestApp, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({ method: 'GET', url: '/demo/outbox', ...options });

describe('/demo/outbox', () => {
  it('does not exist outside demo mode (404), even for a loopback caller', async () => {
    await withApp({ DEMO: 'false' }, async (t) => {
      for (const remoteAddress of ['127.0.0.1', '::1']) {
        const response = await outbox(t, { remoteAddress, headers: { accept: 'text/html' } });
        assert.equal(response.statusCode, 404, remoteAddress);
        assert.doesNotMatch(response.body, /outbox/i);
      }
    });
  });

  it('answers loopback callers in demo mode', async () => {
    await withApp({}, async (t) => {
      for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        const response = await outbox(t, { remoteAddress });
        assert.equal(response.statusCode, 200, remoteAddress);
        assert.match(response.body, /<h1>Demo outbox<\/h1>/);
      }
    });
  });

  it('refuses any other client address in demo mode, and proxied requests', async () => {
    await withApp({}, async (t) => {
      await t.app.inject({
        method: 'POST',
        url: '/api/user/password/request',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          teamName: 'acme',
          userName: 'ada@acme.test',
          proof: await proofFor(t.app),
        }),
      });
      for (const remoteAddress of ['10.1.2.3', '192.168.0.7', '2001:db8::1', '127.0.0.2']) {
        const response = await outbox(t, { remoteAddress });
        assert.equal(response.statusCode, 404, remoteAddress);
        assert.doesNotMatch(response.body, /resetPassword|token=/);
      }
      // A reverse proxy on the same machine makes every visitor look local: its forwarding headers refuse.
      const proxied: Array<Record<string, string>> = [
        { 'x-forwarded-for': '203.0.113.9' },
        { forwarded: 'for=203.0.113.9' },
      ];
      for (const headers of proxied) {
        const response = await outbox(t, { remoteAddress: '127.0.0.1', headers });
        assert.equal(response.statusCode, 404, JSON.stringify(headers));
      }
    });
  });
});

describe('the outbox folder', () => {
  it('shows each mail whole or not at all, while mails are being written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acct-outbox-'));
    try {
      const mailer = new OutboxMailer(dir, 'portal@acct.test', pino({ level: 'silent' }));
      const mails = Array.from({ length: 40 }, (_, i) =>
        mailer.send({
          to: `user${i}@acme.test`,
          subject: 'Reset',
          text: 'x',
          html: '<p>x</p>',
          link: `/r/${i}`,
        }),
      );
      let writing = true;
      const sent = Promise.all(mails).finally(() => (writing = false));
      sent.catch(() => undefined); // awaited below; a failed send fails the test there
      // Read the folder as the outbox page (and the end-to-end helpers) do, until every mail is in.
      let reads = 0;
      while (writing) {
        await mailer.recent(100);
        for (const name of readdirSync(dir).filter((each) => each.endsWith('.json'))) {
          JSON.parse(readFileSync(join(dir, name), 'utf8'));
        }
        reads++;
      }
      await sent;
      const entries = await mailer.recent(100);
      assert.equal(entries.length, 40);
      assert.ok(reads > 0);
      assert.deepEqual(
        readdirSync(dir).filter((name) => !/\.(json|eml)$/.test(name)),
        [],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
