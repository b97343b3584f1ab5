import { paginate } from '../pagination';
import type { PostOptions, RequestOptions, Transport } from '../transport';
import type { Body, Query } from '../types';

/** Campaigns: reward rules, fraud threshold, the hosted links' landing URL. */
export class Campaigns {
  constructor(private readonly t: Transport) {}
  create(body: Body<'/api/v1/campaigns', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/campaigns', { body }, options);
  }
  list(query: Query<'/api/v1/campaigns', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/campaigns', { query }, options);
  }
  /** Every campaign, newest first, page after page. */
  iterate(query: Omit<Query<'/api/v1/campaigns', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.list({ ...query, page }, options), (r) => r.campaigns);
  }
  get(campaignId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/campaigns/{campaignId}', { params: { campaignId } }, options);
  }
  update(campaignId: string, body: Body<'/api/v1/campaigns/{campaignId}', 'patch'>, options?: RequestOptions) {
    return this.t.request('patch', '/api/v1/campaigns/{campaignId}', { params: { campaignId }, body }, options);
  }
}

/** Referrals: a referrer's code (and hosted link) in a campaign. */
export class Referrals {
  constructor(private readonly t: Transport) {}
  /** Creates the referrer's referral in the campaign, or answers the one they have. */
  create(body: Body<'/api/v1/referrals', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/referrals', { body }, options);
  }
  list(query: Query<'/api/v1/referrals', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/referrals', { query }, options);
  }
  iterate(query: Omit<Query<'/api/v1/referrals', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.list({ ...query, page }, options), (r) => r.referrals);
  }
  get(referralCode: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/referrals/{referralCode}', { params: { referralCode } }, options);
  }
}

/** Clicks on referral links your own pages record (hosted links record theirs). */
export class Clicks {
  constructor(private readonly t: Transport) {}
  record(body: Body<'/api/v1/clicks', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/clicks', { body }, options);
  }
}

/** Conversions: a referred user did what the campaign rewards. */
export class Conversions {
  constructor(private readonly t: Transport) {}
  record(body: Body<'/api/v1/conversions', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/conversions', { body }, options);
  }
  list(query: Query<'/api/v1/conversions', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/conversions', { query }, options);
  }
  iterate(query: Omit<Query<'/api/v1/conversions', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.list({ ...query, page }, options), (r) => r.conversions);
  }
  /** A converted referee's later payment on a recurring campaign: the rules earn again. */
  recordPurchase(conversionId: string, body: Body<'/api/v1/conversions/{conversionId}/purchases', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/conversions/{conversionId}/purchases', { params: { conversionId }, body }, options);
  }
  listPurchases(conversionId: string, query: Query<'/api/v1/conversions/{conversionId}/purchases', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/conversions/{conversionId}/purchases', { params: { conversionId }, query }, options);
  }
  /** A refund, chargeback or cancellation of the conversion (or of one purchase), in full or in part. */
  reverse(conversionId: string, body: Body<'/api/v1/conversions/{conversionId}/reversals', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/conversions/{conversionId}/reversals', { params: { conversionId }, body }, options);
  }
  listReversals(conversionId: string, query: Query<'/api/v1/conversions/{conversionId}/reversals', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/conversions/{conversionId}/reversals', { params: { conversionId }, query }, options);
  }
}

/** Counters kept on write: a campaign's totals and time series, a user's. */
export class Stats {
  constructor(private readonly t: Transport) {}
  campaign(campaignId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/stats', { query: { campaignId } }, options);
  }
  timeseries(query: Query<'/api/v1/stats/timeseries', 'get'>, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/stats/timeseries', { query }, options);
  }
  user(userId: string, query: Query<'/api/v1/users/{userId}/stats', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/users/{userId}/stats', { params: { userId }, query }, options);
  }
}

/** Rewards of conversions, their discount codes, claims and redemptions. */
export class Rewards {
  constructor(private readonly t: Transport) {}
  list(query: Query<'/api/v1/rewards', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/rewards', { query }, options);
  }
  iterate(query: Omit<Query<'/api/v1/rewards', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.list({ ...query, page }, options), (r) => r.rewards);
  }
  listForUser(userId: string, query: Query<'/api/v1/users/{userId}/rewards', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/users/{userId}/rewards', { params: { userId }, query }, options);
  }
  /** Whether a discount or coupon code can be used now. */
  validate(code: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/rewards/validate', { query: { code } }, options);
  }
  get(rewardId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/rewards/{rewardId}', { params: { rewardId } }, options);
  }
  history(rewardId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/rewards/{rewardId}/history', { params: { rewardId } }, options);
  }
  claim(rewardId: string, options?: PostOptions) {
    return this.t.request('post', '/api/v1/rewards/{rewardId}/claim', { params: { rewardId } }, options);
  }
  redeem(body: Body<'/api/v1/rewards/redeem', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/rewards/redeem', { body }, options);
  }
  /** What referrers owe back for rewards paid before their sale was reversed. */
  clawbacks(query: Query<'/api/v1/rewards/clawbacks', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/rewards/clawbacks', { query }, options);
  }
}

/** The fraud review queue. */
export class FraudFlags {
  constructor(private readonly t: Transport) {}
  list(query: Query<'/api/v1/fraud/flags', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/fraud/flags', { query }, options);
  }
  iterate(query: Omit<Query<'/api/v1/fraud/flags', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.list({ ...query, page }, options), (r) => r.flags);
  }
  get(flagId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/fraud/flags/{flagId}', { params: { flagId } }, options);
  }
  resolve(flagId: string, body: Body<'/api/v1/fraud/flags/{flagId}/resolve', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/fraud/flags/{flagId}/resolve', { params: { flagId }, body }, options);
  }
}

/** Tokens of the embeddable referral widget, for your pages. */
export class EmbedTokens {
  constructor(private readonly t: Transport) {}
  create(body: Body<'/api/v1/embed-tokens', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/embed-tokens', { body }, options);
  }
}
