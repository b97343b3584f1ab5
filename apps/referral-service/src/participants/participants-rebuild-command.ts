// The participants directory recount (tools/referral-rebuild-participants.mjs
// runs it): recounts each participant's referral figures from the
// referrals and conversions, reports drift, and with --fix writes them
// (filling the directory after an upgrade from a release without it).
//
//   node tools/referral-rebuild-participants.mjs [--app <appId>] [--fix]
//
// Reads MONGODB_URL and MONGODB_DB like the service. Exits 1 when a drift
// was found and not fixed.
import { Outbox } from '@ris/events';
import { maintenanceArgs, withServiceDatabase } from '@ris/service-runtime';
import { referralRepositories } from '../referral-modules';
import { rebuildParticipants } from './participants-rebuild';

async function main(): Promise<void> {
  const { appId, fix } = maintenanceArgs('referral-rebuild-participants');
  await withServiceDatabase('referral-rebuild', 'ris_referral', async (db, logger) => {
    const report = await rebuildParticipants(referralRepositories(db, new Outbox(db)), logger, { appId, fix });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    process.stderr.write(`checked ${report.participants} participants: ${report.drifted.length} drifts${fix ? ` (${report.fixed} participants fixed)` : ''}\n`);
    process.exitCode = report.drifted.length > 0 && !fix ? 1 : 0;
  });
}

void main();
