// Recomputes every incentive balance from the ledger and reports drift
// (apps/incentive-service/src/ledger/balance-rebuild.ts).
//
//   MONGODB_URL=… MONGODB_DB=ris_incentive node tools/incentive-rebuild-balances.mjs [--app <appId>] [--fix]
//
// Without --fix it only reads. With --fix a drifted balance is replaced by
// its recomputation (compare-and-set: safe while the service runs) and
// entries a crashed writer left unapplied are applied.
import { runServiceCommand } from './run-service-command.mjs';

await runServiceCommand('apps/incentive-service/src/ledger/balance-rebuild-command.ts', 'incentive-rebuild-balances');
