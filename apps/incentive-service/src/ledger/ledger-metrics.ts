import { Counter } from 'prom-client';

export const coinsIssued = new Counter({ name: 'ris_coins_issued_total', help: 'Coins credited to balances (actions, levels, milestones, credits)' });

export const coinsRedeemed = new Counter({ name: 'ris_coins_redeemed_total', help: 'Coins debited from balances (redemptions, purchases, debits)' });
