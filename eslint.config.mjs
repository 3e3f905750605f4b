import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'test-results/', 'node_modules/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Design §2: all network access goes through src/api.
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the API through src/api (design §2).' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/contract/**'],
    rules: {
      // The contract is the elements': the server imports src/contract, never the reverse. The client
      // takes only types from the route schemas: a value from there (or typebox) would bundle them.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'typebox', allowTypeImports: true, message: 'Types only (import type).' }],
          patterns: [
            {
              regex: '/demo/',
              message: 'Nothing in src/ imports demo/: shared rules and schemas live in src/contract.',
            },
            {
              regex: '/contract/schemas/',
              allowTypeImports: true,
              message: 'Only types come from the route schemas (import type): none of them in the bundle.',
            },
          ],
        },
      ],
    },
  },
  {
    // What the elements and the server share: plain rules and schemas, no React and no DOM, so the
    // server can run it.
    files: ['src/contract/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-globals': ['error', 'document', 'window', 'navigator', 'localStorage', 'fetch'],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(react|react-dom|zustand|i18next|react-i18next)(/|$)|/(api|ui|features|state|i18n|elements|portal|brands|styles|demo)/',
              message: 'src/contract imports nothing but itself and typebox.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/api/**/*.ts'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      // Design §2: features do not import each other.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // '../other-feature/…' or any path through features/ ('../../ui/…' is fine).
              regex: '^\\.\\./(?!\\.)|/features/',
              message: 'Features do not import each other; compose them in elements/ or portal/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['demo/**/*.{ts,js}', 'test/**/*.{ts,tsx,mjs}', 'scripts/**/*.mjs', '*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser, ...globals.mocha } },
  },
  {
    // The bundle's CommonJS shim (rollup.config.mjs): its `require` is what makes react-dom's start lazy.
    files: ['scripts/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.commonjs, ...globals.browser } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['demo/server/**/*.ts'],
    rules: {
      // @fastify/cookie runs with `hook: false`: request.cookies is null until cookiesOf parses it.
      'no-restricted-properties': [
        'error',
        {
          object: 'request',
          property: 'cookies',
          message: 'Read cookies through cookiesOf(request) (lib/cookies.ts): they are parsed on demand.',
        },
      ],
    },
  },
  {
    // chai's property assertions (`expect(x).to.exist`) are expressions by design.
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
