import type { Connection } from 'mongoose';
import { AppScoped, DocumentWriteQueue } from '@ris/mongo';
import type { RewardDoc, RewardStatusName } from '../rewards/reward.model';
import { rewardTotalsModel, type AmountsByStatus, type RewardTotalsDoc } from './reward-totals.model';

const STATUS_KEY: Record<RewardStatusName, keyof AmountsByStatus> = {
  PENDING: 'pending',
  APPROVED: 'approved',
  PAID: 'paid',
  CANCELLED: 'cancelled',
};

export interface TotalsView {
  total: AmountsByStatus;
  levels: Array<{ level: number; amounts: AmountsByStatus }>;
  referee: AmountsByStatus;
}

/** Campaign ids hold no ':', so the key is unambiguous whatever the user id. */
export const totalsId = (campaignId: string, userId: string) => `${campaignId}:${userId}`;

const emptyAmounts = (): AmountsByStatus => ({ pending: 0, approved: 0, paid: 0, cancelled: 0, count: 0 });

function addInto(target: AmountsByStatus, source: Partial<AmountsByStatus> | undefined): void {
  if (!source) return;
  for (const key of Object.keys(target) as Array<keyof AmountsByStatus>) target[key] += source[key] ?? 0;
}

/**
 * What one reward's creation (from null) or move adds to the totals: the
 * campaign's document (userId '') and the user's, which also has the
 * reward's level (referrer side) or referee bucket. The rebuild sums the
 * same increments over every reward.
 */
export function totalsIncrements(
  reward: Pick<RewardDoc, 'userId' | 'side' | 'level' | 'amount'>,
  from: RewardStatusName | null,
  to: RewardStatusName,
): Array<{ userId: string; inc: Record<string, number> }> {
  const bucket = (prefix: string, inc: Record<string, number>) => {
    if (from) inc[`${prefix}.${STATUS_KEY[from]}`] = -reward.amount;
    else inc[`${prefix}.count`] = 1;
    inc[`${prefix}.${STATUS_KEY[to]}`] = reward.amount;
    return inc;
  };
  const userBucket = reward.side === 'REFERRER' ? `levels.L${reward.level}` : 'referee';
  return [
    { userId: '', inc: bucket('total', {}) },
    { userId: reward.userId, inc: bucket(userBucket, bucket('total', {})) },
  ];
}

/**
 * Keeps the pre-aggregated reward amounts: every creation and transition
 * is followed by one $inc on the campaign's document and one on the user's
 * (coalesced per document under load), once per move (finishMove). Two
 * documents and no transactions: a process dying between the move's totals
 * marker and these increments leaves the totals short by that reward.
 */
export class RewardTotals {
  private readonly totals: AppScoped<RewardTotalsDoc>;
  private readonly increments: DocumentWriteQueue<RewardTotalsDoc>;

  constructor(db: Connection) {
    this.totals = new AppScoped(rewardTotalsModel(db));
    this.increments = new DocumentWriteQueue(this.totals);
  }

  /** A reward created in `to` (from null) or moved from `from` to `to`. */
  async apply(reward: RewardDoc, from: RewardStatusName | null, to: RewardStatusName): Promise<void> {
    const { appId, campaignId } = reward;
    await Promise.all(
      totalsIncrements(reward, from, to).map(({ userId, inc }) =>
        this.increments.increment(appId, { _id: totalsId(campaignId, userId) }, inc, { campaignId, userId }),
      ),
    );
  }

  /** Campaign scope, a user in a campaign, or a user over every campaign. */
  async view(appId: string, scope: { campaignId?: string; userId?: string }): Promise<TotalsView> {
    const one = (id: string) => this.totals.findOne(appId, { _id: id }).then((doc) => (doc ? [doc] : []));
    const docs = scope.campaignId
      ? await one(totalsId(scope.campaignId, scope.userId ?? ''))
      : await this.totals.find(appId, { userId: scope.userId });
    const view: TotalsView = { total: emptyAmounts(), levels: [], referee: emptyAmounts() };
    const levels = new Map<number, AmountsByStatus>();
    for (const doc of docs) {
      addInto(view.total, doc.total);
      addInto(view.referee, doc.referee);
      for (const [key, amounts] of Object.entries(doc.levels ?? {})) {
        const level = Number(key.slice(1));
        if (!levels.has(level)) levels.set(level, emptyAmounts());
        addInto(levels.get(level)!, amounts);
      }
    }
    view.levels = [...levels.entries()].sort(([a], [b]) => a - b).map(([level, amounts]) => ({ level, amounts }));
    return view;
  }
}
