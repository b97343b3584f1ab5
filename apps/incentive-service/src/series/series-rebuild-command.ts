// The incentive series rebuild command (tools/incentive-rebuild-series.mjs
// runs it): recounts the hourly and daily buckets behind
// GET /incentives/actions/{key}/timeseries and GET /incentives/stats/timeseries
// from the events and the ledger, and reports drift.
//
//   node tools/incentive-rebuild-series.mjs [--app <appId>] [--fix]
//
// Reads MONGODB_URL and MONGODB_DB like the service. Exits 1 when a drift
// was found and not fixed.
import { maintenanceArgs, withServiceDatabase } from '@ris/service-runtime';
import { rebuildSeries } from './series-rebuild';

async function main(): Promise<void> {
  const { appId, fix } = maintenanceArgs('incentive-rebuild-series');
  await withServiceDatabase('incentive-rebuild-series', 'ris_incentive', async (db, logger) => {
    const report = await rebuildSeries(db, logger, { appId, fix });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const fixedCount = report.drifted.filter((d) => d.fixed).length;
    process.stderr.write(
      `checked ${report.buckets} hour and day buckets: ${report.drifted.length} drifted${fix ? ` (${fixedCount} fixed)` : ''}, ` +
        `${report.missingMarkers} active-user markers missing${fix ? ' (inserted)' : ''}\n`,
    );
    process.exitCode = report.drifted.length - fixedCount > 0 || (!fix && report.missingMarkers > 0) ? 1 : 0;
  });
}

void main();
