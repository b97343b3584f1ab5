import { Counter } from 'prom-client';

export const incentiveEventsProcessed = new Counter({ name: 'ris_incentive_events_total', help: 'Incentive events (actions of users) processed' });
