// Recomputes the reward totals behind the stats endpoints from the rewards
// and reports drift (apps/reward-service/src/totals/totals-rebuild.ts).
//
//   MONGODB_URL=… MONGODB_DB=ris_reward node tools/reward-rebuild-totals.mjs [--app <appId>] [--fix]
//
// Without --fix it only reads. With --fix each drift seen alike by two
// passes is closed by $inc of the difference (safe while the service runs).
import { runServiceCommand } from './run-service-command.mjs';

await runServiceCommand('apps/reward-service/src/totals/totals-rebuild-command.ts', 'reward-rebuild-totals');
