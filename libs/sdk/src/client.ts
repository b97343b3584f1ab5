import { Incentives } from './resources/incentive-resources';
import { Campaigns, Clicks, Conversions, EmbedTokens, FraudFlags, Referrals, Rewards, Stats } from './resources/referral-resources';
import { Webhooks } from './resources/webhook-resources';
import { Transport, type ClientOptions } from './transport';

/**
 * The API of the Referral and Incentive Service for your backend, one
 * method per operation, grouped by resource:
 *
 *   const ris = new ReferralIncentiveClient({ baseUrl: 'https://api.example.com', apiKey: process.env.RIS_API_KEY! });
 *   const { referralCode } = await ris.referrals.create({ campaignId, referrerId: 'user-1' });
 *
 * Every POST carries an Idempotency-Key (a new one per call unless given),
 * so its retries are applied once; 429, 503, timeouts and network errors
 * are retried with backoff where that is safe; failures throw ApiError,
 * RequestTimeoutError or NetworkError.
 */
export class ReferralIncentiveClient {
  readonly campaigns: Campaigns;
  readonly referrals: Referrals;
  readonly clicks: Clicks;
  readonly conversions: Conversions;
  readonly stats: Stats;
  readonly rewards: Rewards;
  readonly fraudFlags: FraudFlags;
  readonly webhooks: Webhooks;
  readonly embedTokens: EmbedTokens;
  readonly incentives: Incentives;

  constructor(options: ClientOptions) {
    const t = new Transport(options);
    this.campaigns = new Campaigns(t);
    this.referrals = new Referrals(t);
    this.clicks = new Clicks(t);
    this.conversions = new Conversions(t);
    this.stats = new Stats(t);
    this.rewards = new Rewards(t);
    this.fraudFlags = new FraudFlags(t);
    this.webhooks = new Webhooks(t);
    this.embedTokens = new EmbedTokens(t);
    this.incentives = new Incentives(t);
  }
}
