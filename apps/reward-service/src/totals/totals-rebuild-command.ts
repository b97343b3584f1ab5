// The reward totals rebuild command (tools/reward-rebuild-totals.mjs runs
// it): recomputes the totals from the rewards and reports drift.
//
//   node tools/reward-rebuild-totals.mjs [--app <appId>] [--fix]
//
// Reads MONGODB_URL and MONGODB_DB like the service. Exits 1 when a drift
// was found and not fixed.
import { Outbox } from '@ris/events';
import { maintenanceArgs, withServiceDatabase } from '@ris/service-runtime';
import { RewardMoveRepository } from '../moves/reward-move.repository';
import { RewardRepository } from '../rewards/reward.repository';
import { RewardTotalsRepository } from './reward-totals.repository';
import { rebuildTotals } from './totals-rebuild';

async function main(): Promise<void> {
  const { appId, fix } = maintenanceArgs('reward-rebuild-totals');
  await withServiceDatabase('reward-rebuild', 'ris_reward', async (db, logger) => {
    // Only read here: the moves' outbox carrier is never written through.
    const store = { rewards: new RewardRepository(db), moves: new RewardMoveRepository(db, new Outbox(db)), totals: new RewardTotalsRepository(db) };
    const report = await rebuildTotals(store, logger, { appId, fix });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const fixedCount = report.drifted.filter((d) => d.fixed).length;
    process.stderr.write(
      `checked ${report.rewards} rewards, ${report.documents} totals documents: ${report.drifted.length} drifted` +
        `${fix ? ` (${fixedCount} fixed)` : ''}, ${report.unsettled} left for moves still open (run again later)\n`,
    );
    process.exitCode = report.drifted.length - fixedCount > 0 ? 1 : 0;
  });
}

void main();
