/**
 * Makes sure the system programs the tests run are installed: Debian's Chromium (the unit and
 * end-to-end tests), PostgreSQL's server binaries (`npm run test:postgres`) and haproxy (the cluster
 * test's load balancer, `npm run test:cluster`), xmlsec1 (the SAML attack tests) and SimpleSAMLphp with
 * PHP (the real identity provider of the SAML end-to-end test). Anything missing is installed with
 * apt-get when running as root (a fresh CI container); otherwise it stops at once and prints the one
 * command to run, rather than failing later in the middle of a suite.
 * Usage: node scripts/system-deps.mjs chromium postgresql haproxy xmlsec1 simplesamlphp
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const POSTGRES_ROOT = '/usr/lib/postgresql';
/** The load balancer of the cluster test (`npm run test:cluster`): Debian's, unless HAPROXY_PATH says. */
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

/** The newest PostgreSQL server's bin folder (/usr/lib/postgresql/<version>/bin), or null. */
export function postgresBin() {
  const versions = existsSync(POSTGRES_ROOT)
    ? readdirSync(POSTGRES_ROOT)
        .filter((v) => existsSync(join(POSTGRES_ROOT, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length ? join(POSTGRES_ROOT, versions[0], 'bin') : null;
}

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** What each dependency is, how to tell it is there, and the Debian packages that bring it. */
const DEPENDENCIES = {
  chromium: {
    what: () => `Chromium (${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'})`,
    present: () => executable(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
    // Debian's package installs /usr/bin/chromium: of no help for a CHROMIUM_PATH elsewhere.
    installable: () => !process.env.CHROMIUM_PATH || process.env.CHROMIUM_PATH === '/usr/bin/chromium',
    package: 'chromium',
  },
  haproxy: {
    what: () => `haproxy (${HAPROXY})`,
    present: () => executable(HAPROXY),
    installable: () => HAPROXY === '/usr/sbin/haproxy',
    package: 'haproxy',
  },
  xmlsec1: {
    // Signs the hand-made SAML answers of the attack tests (test/server/saml-attacks.test.ts).
    what: () => 'xmlsec1 (/usr/bin/xmlsec1)',
    present: () => executable('/usr/bin/xmlsec1'),
    installable: () => true,
    package: 'xmlsec1',
  },
  simplesamlphp: {
    // The identity provider of test/e2e/saml-simplesamlphp.test.ts (test/support/simplesamlphp.ts), run
    // by PHP's own server: the package's web server dependency (apache2, as apt picks it) stays unused.
    // SimpleSAMLphp 1.19 needs PHP's dom and mbstring, which its package leaves to php-xml and
    // php-mbstring.
    what: () => 'SimpleSAMLphp (/usr/share/simplesamlphp) and PHP with dom and mbstring (/usr/bin/php)',
    present: () =>
      existsSync('/usr/share/simplesamlphp/www/_include.php') &&
      executable('/usr/bin/php') &&
      spawnSync('/usr/bin/php', [
        '-r',
        'exit(extension_loaded("dom") && extension_loaded("mbstring") ? 0 : 1);',
      ]).status === 0,
    installable: () => true,
    package: ['simplesamlphp', 'php-cli', 'php-xml', 'php-mbstring'],
  },
  postgresql: {
    what: () => `PostgreSQL server binaries (${POSTGRES_ROOT}/<version>/bin)`,
    present: () => postgresBin() !== null,
    installable: () => true,
    package: 'postgresql',
  },
};

/** Runs an apt-get step; its progress output is dropped, its errors shown. */
function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

/** Installs what is missing of `names`; returns the problems that are left (empty: all there). */
export function ensure(names) {
  const unknown = names.filter((name) => !(name in DEPENDENCIES));
  if (unknown.length)
    return [`unknown dependency: ${unknown.join(', ')} (known: ${Object.keys(DEPENDENCIES)})`];
  const missing = names.map((name) => DEPENDENCIES[name]).filter((dep) => !dep.present());
  if (!missing.length) return [];
  const elsewhere = missing.filter((dep) => !dep.installable());
  if (elsewhere.length)
    return elsewhere.map(
      (dep) => `${dep.what()} not found: fix CHROMIUM_PATH or HAPROXY_PATH, or unset it to use Debian's`,
    );
  const packages = missing.flatMap((dep) => dep.package);
  const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  const hasApt = executable('/usr/bin/apt-get');
  if (!hasApt || process.getuid?.() !== 0) {
    const how = hasApt
      ? `run, as root:\n\n  sudo sh -c '${command}'\n`
      : `install Debian's ${packages.join(' and ')} packages or their equivalents (no apt-get here).`;
    return [`missing: ${missing.map((dep) => dep.what()).join(', ')}. To install, ${how}`];
  }
  console.log(
    `--- installing Debian's ${packages.join(', ')} (missing: ${missing.map((dep) => dep.what()).join(', ')})`,
  );
  if (!run('apt-get', ['update', '-qq']) || !run('apt-get', ['install', '-y', '-qq', ...packages]))
    return [`apt-get could not install ${packages.join(', ')}`];
  const still = missing.filter((dep) => !dep.present());
  return still.map(
    (dep) => `${dep.what()} still missing after installing ${[dep.package].flat().join(', ')}`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = ensure(process.argv.slice(2));
  if (problems.length) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
}
