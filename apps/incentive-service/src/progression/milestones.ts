import { characterCount } from '@ris/contracts';
import { invalid, notFound, refused } from '@ris/domain-errors';
import type { Page, PageQuery } from '@ris/mongo';
import type { Badges } from './badges';
import { createDefinition } from '../definitions/definition-create';
import { checkKey, checkName } from '../definitions/definition-key';
import { milestoneId, reachedMilestoneId } from '../events/derived-ids';
import { MILESTONE_METRICS, type MilestoneMetricName } from './milestone-rules';
import type { MilestoneDoc, MilestoneRewardsDoc } from './milestone.model';
import type { MilestoneRepository } from './milestone.repository';
import type { ReachedMilestoneDoc } from './reached-milestone.model';
import type { ReachedListFilter, ReachedMilestoneRepository } from './reached-milestone.repository';
import { checkAmount, checkXp } from '../ledger/reward-amounts';
import { ShortLivedCache } from '../definitions/short-lived-cache';

export interface MilestoneInput {
  key: string;
  name: string;
  description: string | null;
  metric: MilestoneMetricName;
  threshold: number;
  rewards: MilestoneRewardsDoc;
  /** STREAK only: the streak key (it may be defined later: until then the metric reads 0). */
  streakKey?: string | null;
}

export type MilestonePatch = Partial<Omit<MilestoneInput, 'key'>>;

function checkMilestone(m: Omit<MilestoneInput, 'key'>): void {
  checkName(m.name);
  if (!MILESTONE_METRICS.includes(m.metric)) throw invalid(`metric must be one of ${MILESTONE_METRICS.join(', ')}`);
  if (m.metric === 'XP') checkXp(m.threshold, 'threshold');
  else checkAmount(m.threshold, 'threshold');
  if (m.threshold < 1) throw invalid('threshold must be at least 1');
  // 422: a rule between fields that the document's schema cannot state.
  if (m.metric === 'STREAK' && !m.streakKey) throw refused('STREAK_KEY_REQUIRED', 'metric STREAK needs a streakKey', { field: 'streakKey' });
  if (m.streakKey) checkKey(m.streakKey, 'streakKey');
  checkAmount(m.rewards.coins, 'rewards.coins');
  checkXp(m.rewards.xp, 'rewards.xp');
  checkAmount(m.rewards.tokens, 'rewards.tokens');
  if (m.description !== null && characterCount(m.description) > 1000) throw invalid('description must be at most 1000 characters');
}

/** Milestone definitions and the milestones users reached. */
export class Milestones {
  private readonly cache = new ShortLivedCache<MilestoneDoc[]>(1000);

  constructor(
    private readonly definitions: MilestoneRepository,
    private readonly reached: ReachedMilestoneRepository,
    private readonly badges: Badges,
  ) {}

  async create(appId: string, input: MilestoneInput, operationKey = ''): Promise<MilestoneDoc> {
    checkKey(input.key);
    checkMilestone(input);
    await this.badges.checkExists(appId, input.rewards.badgeKey, 'rewards.badgeKey');
    const now = new Date();
    const { doc, created } = await createDefinition(
      this.definitions,
      appId,
      { ...input, streakKey: input.metric === 'STREAK' ? (input.streakKey ?? null) : null, _id: milestoneId(appId, input.key), name: input.name.trim(), createdAt: now, updatedAt: now },
      'A milestone',
      input.key,
      operationKey,
    );
    if (created) this.cache.invalidate(appId);
    return doc;
  }

  async get(appId: string, key: string): Promise<MilestoneDoc> {
    const doc = await this.definitions.byKey(appId, key);
    if (!doc) throw notFound('Milestone', { key });
    return doc;
  }

  list(appId: string, page: PageQuery): Promise<Page<MilestoneDoc>> {
    return this.definitions.page(appId, page);
  }

  /** Every definition of the app (cached briefly: read on every balance change). */
  all(appId: string): Promise<MilestoneDoc[]> {
    return this.cache.get(appId, () => this.definitions.all(appId));
  }

  async update(appId: string, key: string, patch: MilestonePatch): Promise<MilestoneDoc> {
    const current = await this.get(appId, key);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as MilestonePatch;
    const next = { ...current, streakKey: current.streakKey ?? null, ...defined };
    if (defined.name !== undefined) next.name = defined.name.trim();
    // A streak key means something with metric STREAK only: any other metric keeps none.
    if (next.metric !== 'STREAK') next.streakKey = null;
    checkMilestone(next);
    if (defined.rewards) await this.badges.checkExists(appId, defined.rewards.badgeKey, 'rewards.badgeKey');
    const updated = await this.definitions.storeChanges(appId, next);
    this.cache.invalidate(appId);
    if (!updated) throw notFound('Milestone', { key });
    return updated;
  }

  /** Users who reached it keep it (and what it gave). */
  async delete(appId: string, key: string): Promise<void> {
    const removed = await this.definitions.removeKey(appId, key);
    this.cache.invalidate(appId);
    if (!removed) throw notFound('Milestone', { key });
  }

  /** Stores that a user reached a milestone (once: the _id is derived from app, user and key). */
  async recordReached(appId: string, userId: string, milestone: MilestoneDoc, at: Date): Promise<void> {
    await this.reached.record({
      _id: reachedMilestoneId(appId, userId, milestone.key),
      appId,
      userId,
      key: milestone.key,
      name: milestone.name,
      metric: milestone.metric,
      threshold: milestone.threshold,
      reachedAt: at,
    });
  }

  /** Reached milestones, newest first: of the app, of one user, of one milestone (who reached it), or both. */
  listReached(appId: string, page: PageQuery, filter: ReachedListFilter = {}): Promise<Page<ReachedMilestoneDoc>> {
    return this.reached.page(appId, page, filter);
  }
}
