import { Counter } from 'prom-client';

export const rewardsMoved = new Counter({
  name: 'ris_rewards_total',
  help: 'Rewards that reached a status (created as PENDING or APPROVED, then APPROVED, REDEEMED, CANCELLED…), by status',
  labelNames: ['status'],
});
