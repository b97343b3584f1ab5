import { DEFAULT_CODE_VALIDITY_DAYS } from '@ris/contracts';
import { invalid, notFound, refused } from '@ris/domain-errors';
import { idFromOperation, type Page, type PageQuery } from '@ris/mongo';
import type { CampaignDoc, CampaignStatusName, CampaignSummary, RewardRuleDoc } from './campaign.model';
import type { CampaignRepository } from './campaign.repository';

export interface CampaignInput {
  name: string;
  status?: CampaignStatusName;
  referrerReward: RewardRuleDoc;
  refereeReward?: RewardRuleDoc | null;
  levels?: Array<{ level: number; amount: number }>;
  attributionWindowDays?: number;
  maxRewardsPerReferrer?: number | null;
  fraud?: { flagThreshold: number };
  rewardCodeValidityDays?: number;
  landingUrl?: string | null;
}

export type CampaignPatch = Partial<CampaignInput>;

const DEFAULT_ATTRIBUTION_DAYS = 30;
const DEFAULT_FLAG_THRESHOLD = 50;

/** An absolute http(s) URL a browser can be sent to (the gateway checks the same). */
function isLandingUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Invariants the gateway also checks; repeated here because the service is the owner. */
function checkCampaign(c: Omit<CampaignDoc, '_id' | 'appId' | 'createdAt' | 'updatedAt'>): void {
  if (!c.name.trim()) throw invalid('name must not be empty');
  for (const reward of [c.referrerReward, c.refereeReward]) {
    if (reward && (!Number.isFinite(reward.amount) || reward.amount < 0)) throw invalid('reward amounts must be non-negative numbers');
  }
  const seen = new Set<number>();
  for (const entry of c.levels) {
    if (!Number.isInteger(entry.level) || entry.level < 2) throw invalid('levels[].level must be an integer of 2 or more');
    if (seen.has(entry.level)) throw invalid(`levels has level ${entry.level} twice`);
    if (!Number.isFinite(entry.amount) || entry.amount < 0) throw invalid('levels[].amount must be a non-negative number');
    seen.add(entry.level);
  }
  if (!Number.isInteger(c.attributionWindowDays) || c.attributionWindowDays < 1) throw invalid('attributionWindowDays must be a positive integer');
  if (c.maxRewardsPerReferrer !== null && (!Number.isInteger(c.maxRewardsPerReferrer) || c.maxRewardsPerReferrer < 1)) {
    throw invalid('maxRewardsPerReferrer must be a positive integer');
  }
  if (!Number.isInteger(c.rewardCodeValidityDays) || c.rewardCodeValidityDays < 1) {
    throw invalid('rewardCodeValidityDays must be a positive integer');
  }
  if (c.landingUrl !== null && c.landingUrl !== undefined && !isLandingUrl(c.landingUrl)) {
    throw invalid('landingUrl must be an absolute http or https URL of at most 2048 characters');
  }
  const t = c.fraud.flagThreshold;
  if (!Number.isInteger(t) || t < 0 || t > 100) throw invalid('fraud.flagThreshold must be an integer from 0 to 100');
}

/** A campaign's settings: created, read, listed and changed, each checked against the rules of the contract. */
export class Campaigns {
  constructor(private readonly campaigns: CampaignRepository) {}

  /** With an operation key, a retry of the request answers the campaign its first try made. */
  async create(appId: string, input: CampaignInput, operationKey = ''): Promise<CampaignDoc> {
    const now = new Date();
    const doc = {
      _id: idFromOperation('cmp', operationKey),
      name: input.name.trim(),
      status: input.status ?? 'ACTIVE',
      referrerReward: input.referrerReward,
      refereeReward: input.refereeReward ?? null,
      levels: [...(input.levels ?? [])].sort((a, b) => a.level - b.level),
      attributionWindowDays: input.attributionWindowDays ?? DEFAULT_ATTRIBUTION_DAYS,
      maxRewardsPerReferrer: input.maxRewardsPerReferrer ?? null,
      fraud: input.fraud ?? { flagThreshold: DEFAULT_FLAG_THRESHOLD },
      rewardCodeValidityDays: input.rewardCodeValidityDays ?? DEFAULT_CODE_VALIDITY_DAYS,
      landingUrl: input.landingUrl ?? null,
      createdAt: now,
      updatedAt: now,
    };
    checkCampaign(doc);
    return this.campaigns.create(appId, doc);
  }

  async get(appId: string, campaignId: string): Promise<CampaignDoc> {
    const campaign = await this.campaigns.findById(appId, campaignId);
    if (!campaign) throw notFound('Campaign', { campaignId });
    // Lean reads skip schema defaults: campaigns stored before the setting existed.
    campaign.rewardCodeValidityDays ??= DEFAULT_CODE_VALIDITY_DAYS;
    campaign.landingUrl ??= null;
    return campaign;
  }

  /** The campaign, which must be ACTIVE to take new referrals and conversions. */
  async getActive(appId: string, campaignId: string): Promise<CampaignDoc> {
    return this.requireActive(await this.get(appId, campaignId));
  }

  /** The campaign as read, if it is ACTIVE (takes new referrals and conversions); else CAMPAIGN_INACTIVE. */
  requireActive(campaign: CampaignDoc): CampaignDoc {
    const campaignId = campaign._id;
    if (campaign.status !== 'ACTIVE') {
      throw refused('CAMPAIGN_INACTIVE', `Campaign ${campaignId} is ${campaign.status}, not ACTIVE.`, {
        campaignId,
        status: campaign.status,
      });
    }
    return campaign;
  }

  /** Name and status of several campaigns at once (the campaigns of a page of conversions). */
  summaries(appId: string, ids: string[]): Promise<Map<string, CampaignSummary>> {
    return this.campaigns.summaries(appId, ids);
  }

  list(appId: string, page: PageQuery, status?: CampaignStatusName): Promise<Page<CampaignDoc>> {
    return this.campaigns.page(appId, page, status);
  }

  async update(appId: string, campaignId: string, patch: CampaignPatch): Promise<CampaignDoc> {
    const current = await this.get(appId, campaignId);
    const next = {
      ...current,
      ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
      updatedAt: new Date(),
    } as CampaignDoc;
    if (patch.name !== undefined) next.name = patch.name.trim();
    if (patch.levels !== undefined) next.levels = [...patch.levels].sort((a, b) => a.level - b.level);
    checkCampaign(next);
    const updated = await this.campaigns.replace(appId, next);
    if (!updated) throw notFound('Campaign', { campaignId });
    return updated;
  }
}
