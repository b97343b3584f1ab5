// Recounts the incentive engine's hourly and daily series (actions' events
// and payouts, the app's events, active users, coins, tokens and XP issued
// and redeemed, redemptions) from the events and the ledger, and reports
// drift (apps/incentive-service/src/series/series-rebuild.ts).
//
//   MONGODB_URL=… MONGODB_DB=ris_incentive node tools/incentive-rebuild-series.mjs [--app <appId>] [--fix]
//
// Without --fix it only reads. With --fix each drift seen alike by two
// passes is closed by $inc of the difference, and missing active-user
// markers are inserted.
import { runServiceCommand } from './run-service-command.mjs';

await runServiceCommand('apps/incentive-service/src/series/series-rebuild-command.ts', 'incentive-rebuild-series');
