import { crashPoint } from '@ris/config';
import type { Carried, Outbox, OutboxCarrier } from '@ris/events';
import type { Logger } from '@ris/logging';
import type { BalanceState, Movement } from './balance-fold';
import type { Badges } from '../progression/badges';
import { levelUp, milestoneReached } from '../events/incentive-domain-events';
import type { Ledger } from './ledger';
import { levelsDue, type LevelDef } from '../progression/level-progress';
import type { Levels } from '../progression/levels';
import { milestonesDue, type MilestoneFacts } from '../progression/milestone-rules';
import type { MilestoneDoc } from '../progression/milestone.model';
import type { Milestones } from '../progression/milestones';
import { xpThatFits } from './reward-amounts';

export interface GrantOutcome {
  /** The balance after the grants. */
  state: BalanceState;
  badges: Array<{ key: string; name: string }>;
  milestones: Array<{ key: string; name: string; metric: string; threshold: number }>;
}

/** Grants cascade (a milestone's XP can reach a level, whose coins a milestone); this bounds it. */
const MAX_ROUNDS = 20;

const levelKey = (userId: string, level: number) => `level:${level}:${userId}`;
const milestoneKey = (userId: string, key: string) => `milestone:${key}:${userId}`;

function levelMovement(userId: string, level: LevelDef, triggeredBy: string | null, at: Date): Movement {
  return {
    key: levelKey(userId, level.level),
    reason: 'LEVEL_REWARD',
    cause: 'LEVEL',
    coins: level.rewards.coins,
    xp: 0,
    tokens: 0,
    sourceId: String(level.level),
    actionKey: null,
    actionType: null,
    level: level.level,
    milestoneKey: null,
    perks: level.rewards.perks,
    description: `Reached level ${level.level} (${level.name})`,
    createdAt: at,
    triggeredBy,
  };
}

/** The milestone's reward for a balance at `currentXp` (XP stops at MAX_XP: see xpThatFits). */
function milestoneMovement(userId: string, m: MilestoneDoc, triggeredBy: string | null, at: Date, currentXp: number): Movement {
  return {
    key: milestoneKey(userId, m.key),
    reason: 'MILESTONE_REWARD',
    cause: 'MILESTONE',
    coins: m.rewards.coins,
    xp: xpThatFits(currentXp, m.rewards.xp),
    tokens: m.rewards.tokens,
    sourceId: m.key,
    actionKey: null,
    actionType: null,
    level: null,
    milestoneKey: m.key,
    perks: [],
    description: `Reached milestone ${m.name}`,
    createdAt: at,
    triggeredBy,
  };
}

/**
 * Level and milestone rewards. After any change of a user's balance, every
 * level whose threshold their XP has reached and every milestone whose
 * metric they have reached is granted, if it was not yet.
 *
 * Exactly once: the grant is a ledger entry under the key level:<n>:<user>
 * or milestone:<key>:<user>, and the balance remembers it (levelsGranted,
 * milestones), so it is never due again. The badge and the "reached"
 * record are written first (both idempotent by derived ids); the ledger
 * entry commits the grant. A crash in between leaves the grant due, and
 * the next balance change of the user finishes it. The level_up and
 * milestone_reached events are stored with the entries that commit their
 * grants (one insert), so they exist exactly when the grants do.
 */
export class RewardGrants {
  private readonly events: OutboxCarrier;

  constructor(
    private readonly ledger: Ledger,
    private readonly levels: Levels,
    private readonly milestones: Milestones,
    private readonly badges: Badges,
    outbox: Outbox,
    private readonly logger: Logger,
  ) {
    this.events = ledger.entries.carrier(outbox);
  }

  /** Whether anything is due for this balance (cheap: definitions are cached). */
  async anyDue(appId: string, state: BalanceState, facts: MilestoneFacts = {}): Promise<boolean> {
    const [ladder, definitions] = await Promise.all([this.levels.list(appId), this.milestones.all(appId)]);
    return levelsDue(ladder, state.xp, state.levelsGranted).length > 0 || milestonesDue(definitions, state, facts).length > 0;
  }

  /** `facts`: what milestones read besides the balance (the streak step passes the streaks' longest lengths). */
  async grantDue(appId: string, userId: string, start: BalanceState, triggeredBy: string | null, facts: MilestoneFacts = {}): Promise<GrantOutcome> {
    const out: GrantOutcome = { state: start, badges: [], milestones: [] };
    let state = start;
    let round = 0;
    // Levels granted by an earlier round of this call whose level_up did not
    // commit (another writer took a slot between them and the top level's
    // entry): the next level_up announces them too, from where they started.
    let unannounced: LevelDef[] = [];
    let unannouncedFrom = 0;
    for (; round < MAX_ROUNDS; round += 1) {
      const [ladder, definitions] = await Promise.all([this.levels.list(appId), this.milestones.all(appId)]);
      const dueLevels = levelsDue(ladder, state.xp, state.levelsGranted);
      const dueMilestones = milestonesDue(definitions, state, facts);
      if (dueLevels.length === 0 && dueMilestones.length === 0) break;
      const at = new Date();

      const badgeNames = new Map<string, string>();
      for (const [badgeKey, source, sourceId] of [
        ...dueLevels.map((l) => [l.rewards.badgeKey, 'LEVEL', String(l.level)] as const),
        ...dueMilestones.map((m) => [m.rewards.badgeKey, 'MILESTONE', m.key] as const),
      ]) {
        if (!badgeKey) continue;
        const badge = await this.badges.find(appId, badgeKey);
        // A badge deleted after the level named it: the other rewards still count.
        if (!badge) continue;
        await this.badges.award(appId, badge, userId, source, sourceId);
        badgeNames.set(badge.key, badge.name);
      }
      for (const m of dueMilestones) await this.milestones.recordReached(appId, userId, m, at);

      const movements = dueLevels.map((l) => levelMovement(userId, l, triggeredBy, at));
      // Each milestone's XP is what still fits under the bound after those before it.
      let xp = state.xp;
      for (const m of dueMilestones) {
        const movement = milestoneMovement(userId, m, triggeredBy, at, xp);
        xp += movement.xp;
        movements.push(movement);
      }
      // Each event rides on the entry that commits what it announces: the
      // level_up on the top level's (levels are in ascending order, and the
      // insert is ordered, so the levels below it are in when it is), each
      // milestone_reached on its milestone's.
      const from = unannounced.length > 0 ? unannouncedFrom : Math.max(0, ...state.levelsGranted);
      const top = Math.max(0, ...dueLevels.map((l) => l.level));
      const carried: Array<Carried | null> = [
        ...dueLevels.map((l) =>
          l.level === top && top > from ? this.events.carry([levelUp(appId, userId, from, top, [...unannounced, ...dueLevels], at)], at) : null,
        ),
        ...dueMilestones.map((m) => this.events.carry([milestoneReached(appId, userId, m, at)], at)),
      ];
      const result = await this.ledger.append(
        appId,
        userId,
        state,
        movements,
        carried.map((c) => c?.fields ?? {}),
      );
      crashPoint('incentive.granted');
      // The committed entries are the first ones, in order.
      result.entries.forEach((entry, i) => carried[i]?.written(entry));
      const committed = new Set(result.entries.map((e) => e.key));
      const grantedLevels = dueLevels.filter((l) => committed.has(levelKey(userId, l.level)));
      const grantedMilestones = dueMilestones.filter((m) => committed.has(milestoneKey(userId, m.key)));
      if (grantedLevels.length > 0 && !committed.has(levelKey(userId, top))) {
        if (unannounced.length === 0) unannouncedFrom = from;
        unannounced = [...unannounced, ...grantedLevels];
      } else if (committed.has(levelKey(userId, top))) {
        unannounced = [];
      }

      for (const l of grantedLevels) if (l.rewards.badgeKey && badgeNames.has(l.rewards.badgeKey)) out.badges.push({ key: l.rewards.badgeKey, name: badgeNames.get(l.rewards.badgeKey) as string });
      for (const m of grantedMilestones) {
        out.milestones.push({ key: m.key, name: m.name, metric: m.metric, threshold: m.threshold });
        if (m.rewards.badgeKey && badgeNames.has(m.rewards.badgeKey)) out.badges.push({ key: m.rewards.badgeKey, name: badgeNames.get(m.rewards.badgeKey) as string });
      }
      state = result.kind === 'applied' ? result.state : await this.ledger.afterConflict(appId, userId, round);
    }
    out.state = state;
    if (round === MAX_ROUNDS) this.logger.warn({ appId }, 'grants still due after the round limit; the next balance change continues');
    return out;
  }
}
