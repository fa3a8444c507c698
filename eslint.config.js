import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * bulletproof-react's direction: shared (components, hooks, lib, testing) → features → app.
 * Shared code imports no feature and no app code; a feature imports no other feature and no app code.
 */
const webImportDirection = [
  {
    files: ['apps/web/src/{components,hooks,lib}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features/*', '@/app/*', '../features/*', '../app/*'],
              message: 'Shared code must not import features or app code.',
            },
          ],
        },
      ],
    },
  },
  ...features.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@/app/*',
                ...features.filter((other) => other !== feature).map((other) => `@/features/${other}/*`),
              ],
              message: 'A feature must not import the app layer or another feature.',
            },
          ],
        },
      ],
    },
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      'tools/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // A plain script the page loads as it is, before the app: the browser's globals, no modules.
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
  {
    // Command-line programs talk to the operator on stdout.
    files: ['scripts/**/*.ts', 'packages/dev-stack/**/*.ts', 'apps/api/src/cli/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Plain CommonJS on purpose: the Node check runs on whatever Node the machine has, the emulator's
    // preload inside firebase-tools' process.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // An error leaves the API one way, `sendError` (the `{ message, code }` body and the request id): an
    // answer built by hand with a `message` would lack the code the web app chooses its words by.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/http/send-error.ts', 'apps/api/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='send'] > ObjectExpression > Property[key.name='message']",
          message: 'Send errors with sendError (http/send-error.ts) or throw a DomainError.',
        },
      ],
    },
  },
  {
    // The web suite's time limits live in src/testing/time-limits.ts, each sized to the work it bounds; a
    // number written into a test is a guess that fails on a busy machine (docs/testing.md, "On a busy machine").
    files: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Property[key.name="timeout"][value.type="Literal"]',
          message: 'Use a limit from src/testing/time-limits.ts (or one built from it), not a number.',
        },
        {
          selector: 'CallExpression[callee.object.name="vi"][callee.property.name="setConfig"]',
          message: 'Time limits are set in src/testing/time-limits.ts, not per file.',
        },
        {
          selector: 'CallExpression[callee.name="configure"]',
          message: "Testing Library's wait limit is set once, in src/testing/setup.ts.",
        },
        {
          selector: 'CallExpression[callee.name=/^(before|after)(All|Each)$/] ImportExpression',
          message: 'A first import in a hook runs against the hook limit; render-app.tsx loads the app code untimed.',
        },
      ],
    },
  },
  ...webImportDirection,
);
