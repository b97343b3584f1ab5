import { Counter } from 'prom-client';

export const redemptionsMoved = new Counter({
  name: 'ris_redemptions_total',
  help: 'Redemptions that reached a state announced by an event (completed, failed…), by kind (catalog, marketplace) and state',
  labelNames: ['kind', 'state'],
});
