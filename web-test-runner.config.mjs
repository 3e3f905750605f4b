import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/support/chromium.mjs';
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
  middleware: [identity.middleware],
  plugins: [bundleTests(), identity.plugin],
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 180000,
};
