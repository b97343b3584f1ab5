const { projectJestConfig } = require('../../jest.preset.cjs');

// Unit tests of the client (retries, timeouts, errors against a local HTTP
// server), the staleness check of its generated types and its publishable
// build. Its tests against the real stack are in apps/e2e (sdk.e2e.spec.ts).
module.exports = projectJestConfig(__dirname, { testTimeout: 60_000 });
