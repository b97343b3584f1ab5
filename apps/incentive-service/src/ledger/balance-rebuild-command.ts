// The balance rebuild command (tools/incentive-rebuild-balances.mjs runs
// it): recomputes every balance from the ledger and reports drift.
//
//   node tools/incentive-rebuild-balances.mjs [--app <appId>] [--fix]
//
// Reads MONGODB_URL and MONGODB_DB like the service. Exits 1 when a balance
// differs from its ledger and was not fixed, or a ledger has a gap.
import { maintenanceArgs, withServiceDatabase } from '@ris/service-runtime';
import { rebuildBalances } from './balance-rebuild';

async function main(): Promise<void> {
  const { appId, fix } = maintenanceArgs('incentive-rebuild-balances');
  await withServiceDatabase('incentive-rebuild', 'ris_incentive', async (db, logger) => {
    const report = await rebuildBalances(db, logger, { appId, fix });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const unfixed = report.drifted.filter((d) => !d.fixed).length + report.gaps.length;
    process.stderr.write(
      `checked ${report.users} users, ${report.entries} ledger entries: ${report.drifted.length} drifted` +
        `${fix ? ` (${report.drifted.filter((d) => d.fixed).length} fixed)` : ''}, ${report.pendingTails.length} pending tails, ` +
        `${report.gaps.length} gaps, ${report.orphanBalances.length} balances without entries\n`,
    );
    // Settled tails moved balances too, and the rebuild writes no board.
    if (fix && (report.drifted.some((d) => d.fixed) || report.pendingTails.some((t) => t.settled))) {
      process.stderr.write('balances changed: rebuild the leaderboards with POST /api/v1/incentives/leaderboard/refresh for each app listed\n');
    }
    process.exitCode = unfixed > 0 ? 1 : 0;
  });
}

void main();
