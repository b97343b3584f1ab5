import type { Connection } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { campaignModel, type CampaignDoc, type CampaignStatusName, type CampaignSummary } from './campaign.model';

/** The stored campaigns: every question asked of them, by name (campaign.model.ts names the index of each). */
export class CampaignRepository extends Repository<CampaignDoc> {
  constructor(db: Connection) {
    super(campaignModel(db));
  }

  /** A new campaign under its id (derived from the request's operation key), or the one a first try of the request stored. */
  async create(appId: string, campaign: Omit<CampaignDoc, 'appId'>): Promise<CampaignDoc> {
    return (await this.insertOrGet(appId, campaign)).doc;
  }

  /** Name and status of several campaigns (the campaigns of a page of referrals or conversions), by id. */
  async summaries(appId: string, ids: string[]): Promise<Map<string, CampaignSummary>> {
    if (ids.length === 0) return new Map();
    const found = await this.collection.find(appId, { _id: { $in: ids } });
    return new Map(found.map((c) => [c._id, { _id: c._id, name: c.name, status: c.status }]));
  }

  /** GET /campaigns: newest first, of one status or all. */
  page(appId: string, page: PageQuery, status?: CampaignStatusName): Promise<Page<CampaignDoc>> {
    return this.collection.page(appId, status ? { status } : {}, { createdAt: -1, _id: -1 }, page);
  }

  /** Stores the campaign's changed fields (all but its id, app and creation time); null when it is not there. */
  replace(appId: string, campaign: CampaignDoc): Promise<CampaignDoc | null> {
    const { _id, appId: _app, createdAt: _created, ...changes } = campaign;
    return this.collection.findOneAndUpdate(appId, { _id }, { $set: changes });
  }
}
