import type { Connection } from 'mongoose';
import { DocumentWriteQueue, Repository, closeDrift, type CounterDrift } from '@ris/mongo';
import { rewardTotalsModel, type RewardTotalsDoc } from './reward-totals.model';
import { totalsId, type TotalsIncrement } from './reward-totals';

/**
 * The pre-aggregated reward amounts: every creation and transition is
 * followed by one $inc on the campaign's document and one on the user's
 * (coalesced per document under load), once per move (finishMove). Two
 * documents and no transactions: a process dying between the move's totals
 * marker and these increments leaves the totals short by that reward.
 */
export class RewardTotalsRepository extends Repository<RewardTotalsDoc> {
  private readonly increments: DocumentWriteQueue<RewardTotalsDoc>;

  constructor(db: Connection) {
    super(rewardTotalsModel(db));
    this.increments = new DocumentWriteQueue(this.collection);
  }

  /** Adds one reward's increments (totalsIncrements) to the documents of its campaign, created on first use. */
  async add(appId: string, campaignId: string, increments: TotalsIncrement[]): Promise<void> {
    await Promise.all(
      increments.map(({ userId, inc }) => this.increments.increment(appId, { _id: totalsId(campaignId, userId) }, inc, { campaignId, userId })),
    );
  }

  /** The campaign's document (userId '') or a user's in the campaign: by _id, one index read on FerretDB too. */
  async ofCampaign(appId: string, campaignId: string, userId = ''): Promise<RewardTotalsDoc[]> {
    const doc = await this.findById(appId, totalsId(campaignId, userId));
    return doc ? [doc] : [];
  }

  /** A user's documents of every campaign. */
  ofUser(appId: string, userId: string): Promise<RewardTotalsDoc[]> {
    return this.collection.find(appId, { userId });
  }

  /** Every totals document of one app, or of all (the totals rebuild, a maintenance command): a cursor. */
  every(appId?: string): AsyncIterable<RewardTotalsDoc> {
    return this.acrossApps.find(appId ? { appId } : {}).lean<RewardTotalsDoc>().cursor();
  }

  /** Closes one drift the rebuild found (an $inc of the difference), creating the document if it is missing. */
  async closeDrift(drift: CounterDrift): Promise<void> {
    const [campaignId, ...userParts] = drift.docId.split(':');
    await closeDrift(this.collection.model, drift, { campaignId, userId: userParts.join(':') });
  }
}
