import type { Connection } from 'mongoose';
import { AppScoped, isDuplicateKeyError, type Page, type PageQuery } from '@ris/mongo';
import { characterCount, invalidArgument, notFound } from '@ris/rpc';
import type { Badges } from './badges';
import { createDefinition } from '../definitions/definition-create';
import { checkKey, checkName } from '../definitions/definition-key';
import { milestoneId, reachedMilestoneId } from '../events/derived-ids';
import { MILESTONE_METRICS, type MilestoneMetricName } from './milestone-rules';
import { milestoneModel, type MilestoneDoc, type MilestoneRewardsDoc } from './milestone.model';
import { reachedMilestoneModel, type ReachedMilestoneDoc } from './reached-milestone.model';
import { checkAmount, checkXp } from '../ledger/reward-amounts';
import { ShortLivedCache } from '../definitions/short-lived-cache';

export interface MilestoneInput {
  key: string;
  name: string;
  description: string | null;
  metric: MilestoneMetricName;
  threshold: number;
  rewards: MilestoneRewardsDoc;
}

export type MilestonePatch = Partial<Omit<MilestoneInput, 'key'>>;

function checkMilestone(m: Omit<MilestoneInput, 'key'>): void {
  checkName(m.name);
  if (!MILESTONE_METRICS.includes(m.metric)) throw invalidArgument(`metric must be one of ${MILESTONE_METRICS.join(', ')}`);
  if (m.metric === 'XP') checkXp(m.threshold, 'threshold');
  else checkAmount(m.threshold, 'threshold');
  if (m.threshold < 1) throw invalidArgument('threshold must be at least 1');
  checkAmount(m.rewards.coins, 'rewards.coins');
  checkXp(m.rewards.xp, 'rewards.xp');
  checkAmount(m.rewards.tokens, 'rewards.tokens');
  if (m.description !== null && characterCount(m.description) > 1000) throw invalidArgument('description must be at most 1000 characters');
}

/** Milestone definitions and the milestones users reached. */
export class Milestones {
  private readonly definitions: AppScoped<MilestoneDoc>;
  private readonly reached: AppScoped<ReachedMilestoneDoc>;
  private readonly cache = new ShortLivedCache<MilestoneDoc[]>(1000);

  constructor(
    db: Connection,
    private readonly badges: Badges,
  ) {
    this.definitions = new AppScoped(milestoneModel(db));
    this.reached = new AppScoped(reachedMilestoneModel(db));
  }

  async create(appId: string, input: MilestoneInput, operationKey = ''): Promise<MilestoneDoc> {
    checkKey(input.key);
    checkMilestone(input);
    await this.badges.checkExists(appId, input.rewards.badgeKey, 'rewards.badgeKey');
    const now = new Date();
    const { doc, created } = await createDefinition(
      this.definitions,
      appId,
      { ...input, _id: milestoneId(appId, input.key), name: input.name.trim(), createdAt: now, updatedAt: now },
      'A milestone',
      input.key,
      operationKey,
    );
    if (created) this.cache.invalidate(appId);
    return doc;
  }

  async get(appId: string, key: string): Promise<MilestoneDoc> {
    const doc = await this.definitions.findOne(appId, { _id: milestoneId(appId, key) });
    if (!doc) throw notFound('Milestone', { key });
    return doc;
  }

  list(appId: string, page: PageQuery): Promise<Page<MilestoneDoc>> {
    return this.definitions.page(appId, {}, { key: 1 }, page);
  }

  /** Every definition of the app (cached briefly: read on every balance change). */
  all(appId: string): Promise<MilestoneDoc[]> {
    return this.cache.get(appId, () => this.definitions.find(appId, {}, { sort: { key: 1 } }));
  }

  async update(appId: string, key: string, patch: MilestonePatch): Promise<MilestoneDoc> {
    const current = await this.get(appId, key);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as MilestonePatch;
    const next = { ...current, ...defined };
    if (defined.name !== undefined) next.name = defined.name.trim();
    checkMilestone(next);
    if (defined.rewards) await this.badges.checkExists(appId, defined.rewards.badgeKey, 'rewards.badgeKey');
    const { _id, appId: _app, key: _key, createdAt: _created, ...changes } = next;
    const updated = await this.definitions.findOneAndUpdate(appId, { _id }, { $set: { ...changes, updatedAt: new Date() } });
    this.cache.invalidate(appId);
    if (!updated) throw notFound('Milestone', { key });
    return updated;
  }

  /** Users who reached it keep it (and what it gave). */
  async delete(appId: string, key: string): Promise<void> {
    const current = await this.get(appId, key);
    await this.definitions.model.deleteOne({ _id: current._id, appId }).exec();
    this.cache.invalidate(appId);
  }

  /** Stores that a user reached a milestone (once: the _id is derived from app, user and key). */
  async recordReached(appId: string, userId: string, milestone: MilestoneDoc, at: Date): Promise<void> {
    try {
      await this.reached.create(appId, {
        _id: reachedMilestoneId(appId, userId, milestone.key),
        userId,
        key: milestone.key,
        name: milestone.name,
        metric: milestone.metric,
        threshold: milestone.threshold,
        reachedAt: at,
      });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  /** Reached milestones, newest first: of the app, of one user, of one milestone (who reached it), or both. */
  listReached(appId: string, page: PageQuery, filter: { userId?: string; key?: string } = {}): Promise<Page<ReachedMilestoneDoc>> {
    const query: Record<string, string> = {};
    if (filter.userId) query.userId = filter.userId;
    if (filter.key) query.key = filter.key;
    return this.reached.page(appId, query, { reachedAt: -1, _id: 1 }, page);
  }
}
