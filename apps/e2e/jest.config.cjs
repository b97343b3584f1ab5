const { projectJestConfig } = require('../../jest.preset.cjs');

// Starts the real stack once (global setup) and runs every end-to-end test
// against it over HTTP. Test files isolate themselves by creating their own apps.
module.exports = projectJestConfig(__dirname, {
  testMatch: ['<rootDir>/src/**/*.e2e.spec.ts'],
  globalSetup: '<rootDir>/src/support/global-setup.ts',
  globalTeardown: '<rootDir>/src/support/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
});
