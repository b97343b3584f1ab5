import { DEFAULT_CODE_VALIDITY_DAYS, DEFAULT_CURRENCY } from '@ris/contracts';
import { invalid, notFound, refused } from '@ris/domain-errors';
import { idFromOperation, type Page, type PageQuery } from '@ris/mongo';
import type { CampaignDoc, CampaignStatusName, CampaignSummary, LevelRewardDoc, RewardRuleDoc } from './campaign.model';
import type { CampaignRepository } from './campaign.repository';
import { checkCommissionTerms } from './commission-terms';
import { effectiveStatus, scheduleProblem, type CampaignEffectiveStatusName } from './campaign-schedule';

export interface CampaignInput {
  name: string;
  status?: CampaignStatusName;
  referrerReward: RewardRuleDoc;
  refereeReward?: RewardRuleDoc | null;
  levels?: LevelRewardDoc[];
  attributionWindowDays?: number;
  maxRewardsPerReferrer?: number | null;
  fraud?: { flagThreshold: number };
  rewardCodeValidityDays?: number;
  landingUrl?: string | null;
  /** The schedule (null: no bound on that side); the end must come after the start. */
  startsAt?: Date | null;
  endsAt?: Date | null;
  /** ISO 4217; USD when not given. Fixed at creation: a patch may only repeat it. */
  currency?: string;
  holdDays?: number;
  recurringMonths?: number | null;
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
  checkCommissionTerms(c);
  const seen = new Set<number>();
  for (const entry of c.levels) {
    if (!Number.isInteger(entry.level) || entry.level < 2) throw invalid('levels[].level must be an integer of 2 or more');
    if (seen.has(entry.level)) throw invalid(`levels has level ${entry.level} twice`);
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
  // 422, not 400: the document's date-time allows these (no JSON Schema compares two fields), and a PATCH may send one bound against the stored other.
  const problem = scheduleProblem(c);
  if (problem) throw refused('INVALID_RANGE', problem.message, { field: problem.field });
}

/**
 * A campaign as read, with what campaigns stored before a setting existed
 * lack (lean reads skip schema defaults) read as that setting's default.
 */
function withDefaults(campaign: CampaignDoc): CampaignDoc {
  campaign.rewardCodeValidityDays ??= DEFAULT_CODE_VALIDITY_DAYS;
  campaign.landingUrl ??= null;
  campaign.startsAt ??= null;
  campaign.endsAt ??= null;
  campaign.currency ??= DEFAULT_CURRENCY;
  campaign.holdDays ??= 0;
  campaign.recurringMonths ??= null;
  return campaign;
}

/** What a campaign that takes nothing now is, in words: the schedule's bound when it is the cause. */
function inactiveState(campaign: CampaignDoc, effective: CampaignEffectiveStatusName): string {
  if (effective === 'SCHEDULED') return `SCHEDULED (it starts at ${campaign.startsAt?.toISOString()})`;
  if (effective === 'ENDED' && campaign.status !== 'ENDED') return `ENDED (it ended at ${campaign.endsAt?.toISOString()})`;
  return effective;
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
      startsAt: input.startsAt ?? null,
      endsAt: input.endsAt ?? null,
      currency: input.currency ?? DEFAULT_CURRENCY,
      holdDays: input.holdDays ?? 0,
      recurringMonths: input.recurringMonths ?? null,
      createdAt: now,
      updatedAt: now,
    };
    checkCampaign(doc);
    return this.campaigns.create(appId, doc);
  }

  async get(appId: string, campaignId: string): Promise<CampaignDoc> {
    const campaign = await this.campaigns.findById(appId, campaignId);
    if (!campaign) throw notFound('Campaign', { campaignId });
    return withDefaults(campaign);
  }

  /** The campaign, which must be ACTIVE now to take new referrals and conversions. */
  async getActive(appId: string, campaignId: string): Promise<CampaignDoc> {
    return this.requireActive(await this.get(appId, campaignId));
  }

  /**
   * The campaign as read, if it takes new referrals and conversions now:
   * ACTIVE and inside its schedule (campaign-schedule.ts); else CAMPAIGN_INACTIVE.
   */
  requireActive(campaign: CampaignDoc): CampaignDoc {
    const campaignId = campaign._id;
    const effective = effectiveStatus(campaign, new Date());
    if (effective !== 'ACTIVE') {
      throw refused('CAMPAIGN_INACTIVE', `Campaign ${campaignId} is ${inactiveState(campaign, effective)}, not ACTIVE.`, {
        campaignId,
        status: campaign.status,
        effectiveStatus: effective,
      });
    }
    return campaign;
  }

  /** Name, status and schedule of several campaigns at once (the campaigns of a page of conversions). */
  summaries(appId: string, ids: string[]): Promise<Map<string, CampaignSummary>> {
    return this.campaigns.summaries(appId, ids);
  }

  /** Newest first; of one status as set and one effective status now, when asked. */
  async list(appId: string, page: PageQuery, status?: CampaignStatusName, effectiveStatus?: CampaignEffectiveStatusName): Promise<Page<CampaignDoc>> {
    const found = await this.campaigns.page(appId, page, { status, effectiveStatus, now: new Date() });
    return { ...found, items: found.items.map(withDefaults) };
  }

  async update(appId: string, campaignId: string, patch: CampaignPatch): Promise<CampaignDoc> {
    const current = await this.get(appId, campaignId);
    if (patch.currency !== undefined && patch.currency !== current.currency) {
      // Every amount the campaign has recorded (conversions, rewards, its totals) is in its currency: another would mix two.
      throw refused('CURRENCY_MISMATCH', `Campaign ${campaignId} is in ${current.currency}; its currency cannot change to ${patch.currency}.`, {
        campaignId,
        currency: patch.currency,
        campaignCurrency: current.currency,
      });
    }
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
