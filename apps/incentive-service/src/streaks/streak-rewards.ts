import { conflict } from '@ris/domain-errors';
import type { Logger } from '@ris/logging';
import type { BalanceState, Movement } from '../ledger/balance-fold';
import type { Ledger } from '../ledger/ledger';
import { xpThatFits } from '../ledger/reward-amounts';
import type { RewardGrants } from '../ledger/reward-grants';
import type { Badges } from '../progression/badges';
import type { StreakDefinitionDoc } from './streak-definition.model';

const MAX_ATTEMPTS = 50;

/** One reward per streak run (named by the period it began in) and length: a retry finds its key taken. */
export const streakRewardKey = (streakKey: string, userId: string, runStart: number, length: number) => `streak:${streakKey}:${userId}:${runStart}:${length}`;

/** What a streak reward and what it made due granted. */
export interface StreakGrantOutcome {
  badges: Array<{ key: string; name: string }>;
  milestones: Array<{ key: string; name: string; metric: string; threshold: number }>;
}

/**
 * Pays streak rewards: a STREAK_REWARD ledger entry under its key (exactly
 * once per run and length), the badge first (idempotent by its derived
 * id), then whatever the new balance and streak lengths make due (levels,
 * milestones, STREAK milestones among them).
 */
export class StreakRewards {
  constructor(
    private readonly ledger: Ledger,
    private readonly grants: RewardGrants,
    private readonly badges: Badges,
    private readonly logger: Logger,
  ) {}

  async grant(
    appId: string,
    userId: string,
    due: Array<{ definition: StreakDefinitionDoc; runStart: number; length: number }>,
    triggeredBy: string | null,
    streakLongest: Record<string, number>,
  ): Promise<StreakGrantOutcome> {
    const out: StreakGrantOutcome = { badges: [], milestones: [] };
    for (const { definition, runStart, length } of due) {
      const reward = definition.rewards.find((r) => r.length === length);
      if (!reward) continue;
      if (reward.badgeKey) {
        const badge = await this.badges.find(appId, reward.badgeKey);
        // A badge deleted after the streak named it: the other rewards still count.
        if (badge && (await this.badges.award(appId, badge, userId, 'STREAK', `${definition.key}:${length}`)).awarded) {
          out.badges.push({ key: badge.key, name: badge.name });
        }
      }
      if (reward.coins === 0 && reward.xp === 0 && reward.tokens === 0) continue;
      await this.append(appId, userId, (state) => ({
        key: streakRewardKey(definition.key, userId, runStart, length),
        reason: 'STREAK_REWARD',
        cause: 'STREAK',
        coins: reward.coins,
        xp: xpThatFits(state.xp, reward.xp),
        tokens: reward.tokens,
        sourceId: definition.key,
        actionKey: null,
        actionType: null,
        level: null,
        milestoneKey: null,
        perks: [],
        description: `Streak ${definition.name}: ${length} in a row`,
        triggeredBy,
        streakKey: definition.key,
        streakLength: length,
        createdAt: new Date(),
      }));
    }
    const { state } = await this.ledger.settled(appId, userId);
    if (await this.grants.anyDue(appId, state, { streakLongest })) {
      const granted = await this.grants.grantDue(appId, userId, state, triggeredBy, { streakLongest });
      out.badges.push(...granted.badges);
      out.milestones.push(...granted.milestones);
    }
    return out;
  }

  /** Appends one movement planned against the balance it is written at; a key taken means it was paid before. */
  private async append(appId: string, userId: string, plan: (state: BalanceState) => Movement): Promise<void> {
    let state = await this.ledger.read(appId, userId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const result = await this.ledger.append(appId, userId, state, [plan(state)]);
      if (result.kind === 'applied' || result.keyTaken) return;
      state = await this.ledger.afterConflict(appId, userId, attempt);
    }
    this.logger.warn({ appId }, 'streak reward not written after many conflicts; the next event of the user retries it');
    throw conflict('CONFLICT', 'Too many concurrent changes to this user; retry.');
  }
}
