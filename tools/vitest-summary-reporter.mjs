// Writes a Vitest run's counts to $TEST_SUMMARY_DIR, as
// tools/jest-summary-reporter.cjs does for Jest, so tools/test.sh prints one
// closing line for the whole repository (the dashboard's tests included).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default class VitestSummaryReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const dir = process.env.TEST_SUMMARY_DIR;
    if (!dir) return;
    const counts = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    for (const module of testModules) {
      // A file that failed to load has no tests but failed all the same.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
    }
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'dashboard.json'), JSON.stringify(counts));
  }
}
