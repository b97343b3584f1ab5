// Recounts the participants directory behind GET /participants (referrals,
// conversions, reward value, who referred whom) from the referral service's
// referrals and conversions, and reports drift
// (apps/referral-service/src/participants/participants-rebuild.ts). After an
// upgrade from a release without the directory, --fix fills it.
//
//   MONGODB_URL=… MONGODB_DB=ris_referral node tools/referral-rebuild-participants.mjs [--app <appId>] [--fix]
import { runServiceCommand } from './run-service-command.mjs';

await runServiceCommand('apps/referral-service/src/participants/participants-rebuild-command.ts', 'referral-rebuild-participants');
