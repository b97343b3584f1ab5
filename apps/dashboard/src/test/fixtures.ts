import type { Answer, Campaign, CatalogItem, ConsoleSession, FraudFlag, IncentiveAction, Payout, Redemption, Role, StripeEvent } from '../api/types';
import { page } from './fake-api';

type CampaignFigures = Answer<'/api/v1/stats', 'get'> extends infer S ? Omit<S, 'campaignId'> : never;

/** The answer of GET /console/v1/session/status: the session, or null when signed out (200 either way). */
export function sessionStatus(session: ConsoleSession | null) {
  return { body: { session } };
}

export function sessionFor(role: Role, overrides: Partial<ConsoleSession> = {}): ConsoleSession {
  return {
    operator: { id: 'opr_1', email: 'ana@example.com', isAdmin: false },
    apps: [
      { id: 'app_1', name: 'Shop', role },
      { id: 'app_2', name: 'Blog', role: 'VIEWER' },
    ],
    currentAppId: 'app_1',
    csrfToken: 'csrf-123',
    ...overrides,
  };
}

export function campaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: 'cmp_1',
    name: 'Launch',
    status: 'ACTIVE',
    effectiveStatus: 'ACTIVE',
    startsAt: null,
    endsAt: null,
    referrerReward: { amount: 10, percent: null, maxAmount: null, fulfillmentType: 'DISCOUNT_CODE' },
    refereeReward: null,
    levels: [],
    attributionWindowDays: 30,
    maxRewardsPerReferrer: null,
    fraud: { flagThreshold: 50 },
    rewardCodeValidityDays: 90,
    landingUrl: null,
    currency: 'USD',
    holdDays: 0,
    recurringMonths: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

export function flag(overrides: Partial<FraudFlag> = {}): FraudFlag {
  return {
    id: 'flg_1',
    type: 'CONVERSION',
    status: 'OPEN',
    campaignId: 'cmp_1',
    referralId: 'ref_1',
    referralCode: 'ANA123',
    conversionId: 'conv_1',
    referrerId: 'ana',
    refereeId: 'bob',
    riskScore: 60,
    reasons: ['SAME_DEVICE'],
    warning: 'Possible fraud',
    note: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    resolvedAt: null,
    resolvedBy: null,
    ...overrides,
  };
}

export function incentiveAction(overrides: Partial<IncentiveAction> = {}): IncentiveAction {
  return {
    key: 'first_purchase',
    name: 'First purchase',
    type: 'STANDARD',
    coins: 50,
    xp: 120,
    tokens: 0,
    cooldown: 3600,
    maxRepeats: null,
    enabled: true,
    description: null,
    pendingDays: 0,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

export function catalogItem(overrides: Partial<CatalogItem> = {}): CatalogItem {
  return {
    id: 'itm_1',
    name: 'Tote bag',
    description: 'Organic cotton',
    coinCost: 300,
    tokenCost: 0,
    inventory: 12,
    published: true,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

export function redemption(overrides: Partial<Redemption> = {}): Redemption {
  return {
    id: 'rdm_1',
    userId: 'ana',
    itemId: 'itm_1',
    itemName: 'Tote bag',
    coinCost: 300,
    tokenCost: 0,
    status: 'PENDING',
    redeemedAt: '2026-11-24T10:00:00.000Z',
    fulfilledAt: null,
    cancelledAt: null,
    updatedAt: '2026-11-24T10:00:00.000Z',
    ...overrides,
  };
}

/** A campaign's figures, as GET /stats gives them (zeros unless given). */
export function campaignStats(overrides: Partial<CampaignFigures> = {}): CampaignFigures {
  return { totalReferrals: 0, totalClicks: 0, totalConversions: 0, completedReferrals: 0, conversionRate: 0, totalRewardValue: 0, totalReversals: 0, ...overrides };
}

/** GET /stats/campaigns of these campaigns (the campaigns page), each with zero figures. */
export function campaignStatsPage(campaigns: Campaign[]) {
  return { campaigns: campaigns.map((c) => ({ campaign: c, stats: campaignStats() })), totals: campaignStats(), pagination: page(campaigns.length) };
}

export function payout(overrides: Partial<Payout> = {}): Payout {
  return {
    id: 'po_1',
    userId: 'ana',
    amount: 35.05,
    currency: 'USD',
    rewardsAmount: 35.05,
    clawbacksAmount: 0,
    rewardCount: 2,
    clawbackCount: 0,
    status: 'PENDING',
    externalReference: null,
    createdAt: '2026-11-24T10:00:00.000Z',
    paidAt: null,
    failedAt: null,
    failureReason: null,
    ...overrides,
  };
}

export function stripeEvent(overrides: Partial<StripeEvent> = {}): StripeEvent {
  return {
    id: 'evt_1',
    type: 'checkout.session.completed',
    status: 'MATCHED',
    conversionId: 'conv_1',
    purchaseId: null,
    reversalId: null,
    reasonCode: 'CONVERSION_RECORDED',
    reason: 'The checkout converted through referral code ANA123.',
    livemode: false,
    createdAt: '2026-11-24T10:00:00.000Z',
    receivedAt: '2026-11-24T10:00:01.000Z',
    ...overrides,
  };
}
