// Recounts the campaign counters behind GET /stats (referrals, clicks,
// conversions, completed referrals) and their UTC hourly and daily buckets
// behind GET /stats/timeseries (referrals, clicks, conversions) from the
// documents and reports drift (apps/referral-service/src/stats/stats-rebuild.ts).
// After an upgrade from a release without buckets, --fix fills the past ones.
//
//   MONGODB_URL=… MONGODB_DB=ris_referral node tools/referral-rebuild-stats.mjs [--app <appId>] [--fix]
//
// Without --fix it only reads. With --fix each drift seen alike by two
// passes is closed by $inc of the difference.
import { runServiceCommand } from './run-service-command.mjs';

await runServiceCommand('apps/referral-service/src/stats/stats-rebuild-command.ts', 'referral-rebuild-stats');
