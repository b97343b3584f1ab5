// The campaign counters rebuild command (tools/referral-rebuild-stats.mjs
// runs it): recounts the counters behind GET /stats and their hourly and
// daily buckets behind GET /stats/timeseries, and reports drift.
//
//   node tools/referral-rebuild-stats.mjs [--app <appId>] [--fix]
//
// Reads MONGODB_URL and MONGODB_DB like the service. Exits 1 when a drift
// was found and not fixed.
import { Outbox } from '@ris/events';
import { maintenanceArgs, withServiceDatabase } from '@ris/service-runtime';
import { referralRepositories } from '../referral-modules';
import { rebuildCampaignStats } from './stats-rebuild';

async function main(): Promise<void> {
  const { appId, fix } = maintenanceArgs('referral-rebuild-stats');
  await withServiceDatabase('referral-rebuild', 'ris_referral', async (db, logger) => {
    // The repositories as the service builds them (no relay runs here: nothing is published).
    const report = await rebuildCampaignStats(referralRepositories(db, new Outbox(db)), logger, { appId, fix });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const fixedCount = report.drifted.filter((d) => d.fixed).length;
    process.stderr.write(`checked ${report.campaigns} campaigns and ${report.buckets} of their hour and day buckets: ${report.drifted.length} drifted${fix ? ` (${fixedCount} fixed)` : ''}\n`);
    process.exitCode = report.drifted.length - fixedCount > 0 ? 1 : 0;
  });
}

void main();
