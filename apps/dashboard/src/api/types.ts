// Names for the shapes the pages use, read off the API's paths so that they
// follow the OpenAPI document (src/api/schema.d.ts, generated from it).
import type { paths as ApiPaths } from './schema';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type OkStatus = 200 | 201 | 202;
/** The JSON body of an operation's success answer. */
export type Answer<P extends keyof ApiPaths, M extends Method> = ApiPaths[P][M] extends { responses: infer R }
  ? { [S in keyof R & OkStatus]: R[S] extends { content: { 'application/json': infer B } } ? B : never }[keyof R & OkStatus]
  : never;
/** The JSON body an operation takes. */
export type Body<P extends keyof ApiPaths, M extends Method> = ApiPaths[P][M] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : never;
/** The query an operation takes. */
export type Query<P extends keyof ApiPaths, M extends Method = 'get'> = ApiPaths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type ConsoleSession = Answer<'/console/v1/session', 'get'>;
export type ConsoleApp = ConsoleSession['apps'][number];
export type Role = ConsoleApp['role'];
export type Member = Answer<'/console/v1/apps/{appId}/members', 'get'>['members'][number];
export type AddMemberAnswer = Answer<'/console/v1/apps/{appId}/members', 'post'>;
/** A new invitation link (shown once) and whether it was e-mailed. */
export type IssuedInvitation = Answer<'/console/v1/apps/{appId}/invitations/{invitationId}/resend', 'post'>;
export type Invitation = IssuedInvitation['invitation'];
/** An invitation as its link's guest reads it. */
export type InvitationLink = Answer<'/console/v1/invitations/{token}', 'get'>['invitation'];
export type ApiKeySummary = Answer<'/console/v1/apps/{appId}/keys', 'get'>['keys'][number];
export type IssuedKey = Answer<'/console/v1/apps/{appId}/keys', 'post'>['key'];
export type AuditEntry = Answer<'/console/v1/apps/{appId}/audit', 'get'>['entries'][number];
export type Pagination = Answer<'/api/v1/campaigns', 'get'>['pagination'];
export type Campaign = Answer<'/api/v1/campaigns/{campaignId}', 'get'>['campaign'];
export type CreateCampaign = Body<'/api/v1/campaigns', 'post'>;
export type UpdateCampaign = Body<'/api/v1/campaigns/{campaignId}', 'patch'>;
export type CampaignStatus = Campaign['status'];
export type FulfillmentType = Campaign['referrerReward']['fulfillmentType'];
export type Timeseries = Answer<'/api/v1/stats/timeseries', 'get'>;
export type TimeseriesBucket = Timeseries['buckets'][number];
export type Referral = Answer<'/api/v1/referrals/{referralCode}', 'get'>['referral'];
export type Conversion = Answer<'/api/v1/conversions', 'get'>['conversions'][number];
export type ConversionStatus = Conversion['status'];
export type FraudFlag = Answer<'/api/v1/fraud/flags', 'get'>['flags'][number];
/** One flag and the evidence behind it (null when the fraud service did not answer). */
export type FlagDetail = Answer<'/api/v1/fraud/flags/{flagId}', 'get'>;
export type FraudEvidence = NonNullable<FlagDetail['evidence']>;
export type LinkedRecord = FraudEvidence['linked'][number];
export type Reward = Answer<'/api/v1/rewards/{rewardId}', 'get'>['reward'];
export type RewardStatus = Reward['status'];
export type RewardMove = Answer<'/api/v1/rewards/{rewardId}/history', 'get'>['history'][number];
export type UserStats = Answer<'/api/v1/users/{userId}/stats', 'get'>;
export type IncentiveBalance = Answer<'/api/v1/incentives/balances/{userId}', 'get'>['balance'];
export type Webhook = Answer<'/api/v1/webhooks/{webhookId}', 'get'>['webhook'];
export type WebhookEvent = Webhook['events'][number];
export type WebhookDelivery = Answer<'/api/v1/webhooks/{webhookId}/deliveries', 'get'>['deliveries'][number];
export type WebhookDeliveryDetail = Answer<'/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}', 'get'>['delivery'];
export type IncentiveAction = Answer<'/api/v1/incentives/actions/{key}', 'get'>['action'];
export type ActionType = IncentiveAction['type'];
export type CreateIncentiveAction = Body<'/api/v1/incentives/actions', 'post'>;
export type UpdateIncentiveAction = Body<'/api/v1/incentives/actions/{key}', 'patch'>;
export type IncentiveEvent = Answer<'/api/v1/incentives/events', 'get'>['events'][number];
export type IncentiveTransaction = Answer<'/api/v1/incentives/balances/{userId}/transactions', 'get'>['transactions'][number];
export type IncentiveLevel = Answer<'/api/v1/incentives/levels', 'get'>['levels'][number];
export type Badge = Answer<'/api/v1/incentives/badges', 'get'>['badges'][number];
export type UserBadge = Answer<'/api/v1/incentives/badges/user/{userId}', 'get'>['badges'][number];
export type MilestoneDefinition = Answer<'/api/v1/incentives/milestones/definitions/{key}', 'get'>['milestone'];
export type MilestoneMetric = MilestoneDefinition['metric'];
export type ReachedMilestone = Answer<'/api/v1/incentives/milestones', 'get'>['milestones'][number];
export type LeaderboardEntry = Answer<'/api/v1/incentives/leaderboard/{userId}', 'get'>;
export type LeaderboardPeriod = NonNullable<Query<'/api/v1/incentives/leaderboard'>['period']>;
export type LeaderboardSnapshot = Answer<'/api/v1/incentives/leaderboard/snapshots', 'get'>['snapshots'][number];
export type CatalogItem = Answer<'/api/v1/incentives/catalog/{itemId}', 'get'>['item'];
export type Redemption = Answer<'/api/v1/incentives/redemptions', 'get'>['redemptions'][number];
export type RedemptionStatus = Redemption['status'];
export type MarketplaceListing = Answer<'/api/v1/incentives/marketplace/listings/{listingId}', 'get'>['listing'];
export type Discount = MarketplaceListing['discount'];
export type MarketplaceRedemption = Answer<'/api/v1/incentives/marketplace/redemptions', 'get'>['redemptions'][number];
export type MarketplaceSettlements = Answer<'/api/v1/incentives/marketplace/settlements', 'get'>;
export type ActionTimeseries = Answer<'/api/v1/incentives/actions/{key}/timeseries', 'get'>;
export type ActionBucket = ActionTimeseries['buckets'][number];
export type EngineTimeseries = Answer<'/api/v1/incentives/stats/timeseries', 'get'>;
export type EngineBucket = EngineTimeseries['buckets'][number];
export type RefreshRun = Answer<'/api/v1/incentives/leaderboard/refresh-runs/{runId}', 'get'>['run'];
export type Payout = Answer<'/api/v1/payouts/{payoutId}', 'get'>['payout'];
export type PayoutStatus = Payout['status'];
export type PayoutDetail = Answer<'/api/v1/payouts/{payoutId}', 'get'>;
export type PayoutDue = Answer<'/api/v1/payouts/due', 'get'>['due'][number];
/** POST /payouts's body (optional there: Body reads only required bodies). */
export type CreatePayouts = NonNullable<ApiPaths['/api/v1/payouts']['post']['requestBody']>['content']['application/json'];
export type Clawback = Answer<'/api/v1/rewards/clawbacks', 'get'>['clawbacks'][number];
export type StripeIntegrationState = Answer<'/api/v1/integrations/stripe', 'get'>;
export type StripeEvent = Answer<'/api/v1/integrations/stripe/events', 'get'>['events'][number];
export type StripeEventStatus = StripeEvent['status'];
export type StreakDefinition = Answer<'/api/v1/incentives/streaks/definitions/{key}', 'get'>['streak'];
export type StreakPeriod = StreakDefinition['period'];
export type StreakReward = StreakDefinition['rewards'][number];
export type UserStreak = Answer<'/api/v1/incentives/streaks/{userId}', 'get'>['streaks'][number];
export type IncentiveUserSettings = Answer<'/api/v1/incentives/users/{userId}/settings', 'get'>['settings'];
export type Boost = Answer<'/api/v1/incentives/boosts/{boostId}', 'get'>['boost'];
export type BoostState = Boost['state'];
/** When the app's credits expire (null: never). */
export type IncentiveSettings = Answer<'/api/v1/incentives/settings', 'get'>['settings'];
/** One of a balance's next expiries: an amount of coins or tokens and when it lapses. */
export type ExpiringCredit = IncentiveBalance['expiring'][number];
/** POST /incentives/events/{eventId}/reverse's answer (201 reversed, 200 reversed before). */
export type EventReversal = Answer<'/api/v1/incentives/events/{eventId}/reverse', 'post'>;
