// Writes each Jest run's counts to $TEST_SUMMARY_DIR so tools/test.sh can
// print one closing line for the whole repository ("Tests: N passed, N failed").
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class SummaryReporter {
  constructor(globalConfig, options = {}) {
    this.name = options.name ?? 'jest';
  }

  onRunComplete(_contexts, results) {
    const dir = process.env.TEST_SUMMARY_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${this.name}.json`),
      JSON.stringify({
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        skipped: results.numPendingTests + results.numTodoTests,
      }),
    );
  }
}

module.exports = SummaryReporter;
