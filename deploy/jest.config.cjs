const { projectJestConfig } = require('../jest.preset.cjs');

// The deployment files as tests: every kustomize overlay built and decoded
// strictly against the Kubernetes API types with the project's rules
// (tools/k8s-check), and the Prometheus alert rules through promtool.
module.exports = projectJestConfig(__dirname, {
  testMatch: ['<rootDir>/tests/**/*.spec.ts'],
  testTimeout: 120_000,
});
