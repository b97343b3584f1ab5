import { Counter } from 'prom-client';

// Business counters of the referral service (per process; sum over replicas).

export const referralsCreated = new Counter({ name: 'ris_referrals_created_total', help: 'Referrals created' });

export const clicksRecorded = new Counter({ name: 'ris_clicks_total', help: 'Clicks recorded (first and repeated clicks of a code)' });

export const conversionsRecorded = new Counter({ name: 'ris_conversions_total', help: 'Conversions whose rewards were issued (each level of a multi-level attribution counts)' });

export const fraudFlagsRaised = new Counter({
  name: 'ris_fraud_flags_total',
  help: 'Fraud flags raised for review, by reason (a flag with several reasons counts under each)',
  labelNames: ['reason'],
});
