import type { Connection, FilterQuery } from 'mongoose';
import { DEFAULT_CURRENCY } from '@ris/contracts';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { campaignModel, type CampaignDoc, type CampaignStatusName, type CampaignSummary } from './campaign.model';
import type { CampaignEffectiveStatusName } from './campaign-schedule';

export interface CampaignListFilter {
  status?: CampaignStatusName;
  effectiveStatus?: CampaignEffectiveStatusName;
  now: Date;
}

// A missing bound (campaigns stored before schedules) matches null, as a null one does.
const notEnded = (now: Date): FilterQuery<CampaignDoc> => ({ $or: [{ endsAt: null }, { endsAt: { $gt: now } }] });

/**
 * The stored fields of the campaigns whose effective status at `now` is the one asked: effectiveStatus()
 * (campaign-schedule.ts) written as a query; campaigns-schedule.spec.ts checks the two agree.
 */
function effectiveStatusFilter(effective: CampaignEffectiveStatusName, now: Date): FilterQuery<CampaignDoc> {
  switch (effective) {
    case 'ENDED':
      return { $or: [{ status: 'ENDED' }, { endsAt: { $lte: now } }] };
    case 'PAUSED':
      return { status: 'PAUSED', ...notEnded(now) };
    case 'SCHEDULED':
      return { status: 'ACTIVE', startsAt: { $gt: now }, ...notEnded(now) };
    case 'ACTIVE':
      return { status: 'ACTIVE', $and: [{ $or: [{ startsAt: null }, { startsAt: { $lte: now } }] }, notEnded(now)] };
  }
}

/** The stored campaigns: every question asked of them, by name (campaign.model.ts names the index of each). */
export class CampaignRepository extends Repository<CampaignDoc> {
  constructor(db: Connection) {
    super(campaignModel(db));
  }

  /** A new campaign under its id (derived from the request's operation key), or the one a first try of the request stored. */
  async create(appId: string, campaign: Omit<CampaignDoc, 'appId'>): Promise<CampaignDoc> {
    return (await this.insertOrGet(appId, campaign)).doc;
  }

  /** Name, status, schedule and currency of several campaigns (the campaigns of a page of referrals or conversions), by id. */
  async summaries(appId: string, ids: string[]): Promise<Map<string, CampaignSummary>> {
    if (ids.length === 0) return new Map();
    const found = await this.collection.find(appId, { _id: { $in: ids } });
    return new Map(
      found.map((c) => [
        c._id,
        // Campaigns stored before schedules and currencies: no bound, USD.
        { _id: c._id, name: c.name, status: c.status, startsAt: c.startsAt ?? null, endsAt: c.endsAt ?? null, currency: c.currency ?? DEFAULT_CURRENCY },
      ]),
    );
  }

  /** GET /campaigns: newest first, of one status and one effective status at `now`, or all. */
  page(appId: string, page: PageQuery, { status, effectiveStatus, now }: CampaignListFilter): Promise<Page<CampaignDoc>> {
    const filters: Array<FilterQuery<CampaignDoc>> = [];
    if (status) filters.push({ status });
    if (effectiveStatus) filters.push(effectiveStatusFilter(effectiveStatus, now));
    return this.collection.page(appId, filters.length > 0 ? { $and: filters } : {}, { createdAt: -1, _id: -1 }, page);
  }

  /** Stores the campaign's changed fields (all but its id, app and creation time); null when it is not there. */
  replace(appId: string, campaign: CampaignDoc): Promise<CampaignDoc | null> {
    const { _id, appId: _app, createdAt: _created, ...changes } = campaign;
    return this.collection.findOneAndUpdate(appId, { _id }, { $set: changes });
  }
}
