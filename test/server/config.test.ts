import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../demo/server/config';

describe('configuration', () => {
  it('has working defaults for the demo', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.publicUrl, 'http://localhost:8080');
    assert.equal(config.brand, 'intoware');
    assert.deepEqual(config.corsOrigins, ['http://localhost:8081']);
    assert.equal(config.demo, true);
    assert.match(config.databaseUrl, /data\/portal\.db$/);
  });

  it('reports every problem at once, clearly', () => {
    assert.throws(
      () =>
        loadConfig({
          PORT: 'eighty',
          PUBLIC_URL: 'ftp://x',
          BRAND: 'acme',
          CORS_ORIGINS: 'https://ok.test,https://bad.test/path',
          DEMO: 'maybe',
          SMTP_URL: 'http://mail',
          DATABASE_URL: 'mysql://db',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        const text = error.problems.join('\n');
        for (const name of [
          'PORT',
          'PUBLIC_URL',
          'BRAND',
          'CORS_ORIGINS',
          'DEMO',
          'SMTP_URL',
          'DATABASE_URL',
        ]) {
          assert.match(text, new RegExp(name), `${name} is reported`);
        }
        assert.equal(error.problems.length, 7);
        return true;
      },
    );
  });

  it('takes the allowlist, brand and addresses from the environment', () => {
    const config = loadConfig({
      CORS_ORIGINS: 'https://suite.example.com, https://partner.example.com',
      BRAND: 'Schenck',
      PUBLIC_URL: 'https://id.example.com/',
      DATABASE_URL: 'postgres://u:p@db/portal',
      KEY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      DEMO: 'false',
    });
    assert.deepEqual(config.corsOrigins, ['https://suite.example.com', 'https://partner.example.com']);
    assert.equal(config.brand, 'schenck');
    assert.equal(config.publicUrl, 'https://id.example.com');
    assert.equal(config.partnerPort, 0);
    assert.equal(config.dashboardUrl, null);
  });

  it('needs a 32-byte KEY_ENCRYPTION_KEY with PostgreSQL, none with SQLite; rotates keys every 30 days', () => {
    const sqlite = loadConfig({});
    assert.equal(sqlite.keyEncryptionKey, null);
    assert.equal(sqlite.keyRotationDays, 30);
    const postgres = { DATABASE_URL: 'postgres://u:p@db/portal' };
    assert.throws(
      () => loadConfig(postgres),
      /KEY_ENCRYPTION_KEY is required with a PostgreSQL DATABASE_URL/,
    );
    const key = Buffer.alloc(32, 7);
    for (const text of [key.toString('base64'), key.toString('base64url')])
      assert.ok(loadConfig({ ...postgres, KEY_ENCRYPTION_KEY: text }).keyEncryptionKey?.equals(key));
    for (const wrong of [Buffer.alloc(16).toString('base64'), 'secret', `${key.toString('base64')}AA`])
      assert.throws(
        () => loadConfig({ ...postgres, KEY_ENCRYPTION_KEY: wrong }),
        /KEY_ENCRYPTION_KEY must be 32 bytes/,
      );
    assert.equal(loadConfig({ KEY_ROTATION_DAYS: '0' }).keyRotationDays, 0);
    assert.throws(
      () => loadConfig({ KEY_ROTATION_DAYS: 'monthly' }),
      /KEY_ROTATION_DAYS must be a whole number/,
    );
  });

  it('hashes passwords at scrypt N=2^17 unless HASH_COST says otherwise (10 to 22)', () => {
    assert.equal(loadConfig({}).hashCost, 17);
    assert.equal(loadConfig({ HASH_COST: '10' }).hashCost, 10);
    for (const wrong of ['9', '23', 'cheap']) {
      assert.throws(() => loadConfig({ HASH_COST: wrong }), /HASH_COST must be a whole number from 10 to 22/);
    }
  });

  it('looks domains up through the DNS_SERVERS addresses, or the system’s', () => {
    assert.deepEqual(loadConfig({}).dnsServers, []);
    assert.deepEqual(loadConfig({ DNS_SERVERS: '127.0.0.1:5353, [::1]:53,9.9.9.9' }).dnsServers, [
      '127.0.0.1:5353',
      '[::1]:53',
      '9.9.9.9',
    ]);
    for (const wrong of ['dns.example.test', 'udp://127.0.0.1', '127.0.0.1:port'])
      assert.throws(() => loadConfig({ DNS_SERVERS: wrong }), /DNS_SERVERS entries must be addresses/);
  });
});
