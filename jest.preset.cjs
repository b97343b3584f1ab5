// Shared Jest set-up: every project compiles TypeScript with SWC (fast, no
// type-check; `npm run typecheck` does that) and resolves the @ris/* aliases
// from tsconfig.base.json so tests import exactly what the apps import.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = path.join(__dirname, target);
}

function projectJestConfig(projectDir, overrides = {}) {
  return {
    displayName: path.basename(projectDir),
    rootDir: projectDir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/src/**/*.spec.ts'],
    transform: {
      '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
    },
    moduleFileExtensions: ['ts', 'js', 'json'],
    moduleNameMapper,
    reporters: ['default', [path.join(__dirname, 'tools', 'jest-summary-reporter.cjs'), { name: path.basename(projectDir) }]],
    // A suite whose clean-up failed (its connection left open) is reported as
    // failed; it must not hold the whole run open after the last test, as
    // one did for 28 minutes of a 30-minute CI budget.
    forceExit: true,
    ...overrides,
  };
}

module.exports = { projectJestConfig };
