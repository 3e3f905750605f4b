import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/support/chromium.mjs';
import { failuresReporter } from './test/support/wtr-failures.mjs';
import { bundleTests, identityServer } from './test/support/wtr-plugins.mjs';

const identity = identityServer();

/** Unit and component tests in Debian's headless Chromium (see test/support/wtr-plugins.mjs). */
export default {
  files: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
  nodeResolve: false,
  concurrency: 2,
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: CHROMIUM_ARGS,
      },
      // Each test file in a browser context of its own: files run side by side and sign users in and
      // out, and must not share cookies.
      createPage: async ({ browser }) => (await browser.createBrowserContext()).newPage(),
    }),
  ],
  // The usual report, and the failures in short for the end of CI's log (test/support/wtr-failures.mjs).
  reporters: [defaultReporter(), failuresReporter()],
  middleware: [identity.middleware],
  plugins: [bundleTests(), identity.plugin],
  // Limits that catch a hang, not a slow machine: with both cores busy a test that signs in, sends mail and
  // runs axe twice took over 10 s (docs/decisions/ci-time.md).
  testFramework: { config: { timeout: 30000 } },
  testsFinishTimeout: 180000,
};
