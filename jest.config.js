/**
 * Three tiers (style.md rule 8): unit (no network), integration (DynamoDB Local started once per
 * run by the global setup, one table per test file, real HTTP on loopback; with the hosted pages'
 * end-to-end tests in headless Chromium under test/e2e), infra (CDK templates).
 */
const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest'] };
const common = {
  transform,
  // @middy/core and jose ship ESM only: compile it to CommonJS like our own sources.
  transformIgnorePatterns: ['/node_modules/(?!@middy/|jose/)'],
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The `#` subpath imports of package.json (`#core/money` is functions/core/money.ts).
  moduleNameMapper: {
    '^#(api|services|jobs|consumers|relay|contracts|webhooks|core|data|adapters|shared)/(.*)$': '<rootDir>/functions/$1/$2',
    '^#(lib|bin|bench|simulator|reliability|test)/(.*)$': '<rootDir>/$1/$2',
  },
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      setupFiles: ['<rootDir>/test/setup/unit-env.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      // e2e: the hosted pages in headless Chromium (test/fixtures/browser.ts), against the same local stack.
      testMatch: ['<rootDir>/test/integration/**/*.test.ts', '<rootDir>/test/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/test/setup/dynamo-global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/dynamo-global-teardown.ts',
      setupFiles: ['<rootDir>/test/setup/integration-env.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/setup/integration-table.ts'],
    },
    {
      ...common,
      displayName: 'infra',
      testMatch: ['<rootDir>/test/infra/**/*.test.ts'],
      setupFiles: ['<rootDir>/test/setup/unit-env.ts'],
    },
  ],
};
