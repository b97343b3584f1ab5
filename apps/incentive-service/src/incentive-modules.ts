import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import type { Outbox } from '@ris/events';
import type { Logger } from '@ris/logging';
import type { HolderLiveness } from '@ris/service-runtime';
import { ActionRepository } from './actions/action.repository';
import { BoostRepository } from './boosts/boost.repository';
import { Boosts } from './boosts/boosts';
import { Actions } from './actions/actions';
import { EventClaimRepository } from './events/event-claim.repository';
import { EventClaims } from './events/event-claims';
import { IncentiveEventRepository } from './events/incentive-event.repository';
import { EventRecorder } from './events/record-events';
import { SingleEventCommit } from './events/single-event-commit';
import { BoardCatchUpRepository } from './leaderboard/board-catch-up.repository';
import { Leaderboard } from './leaderboard/leaderboard';
import { LeaderboardRefreshRuns } from './leaderboard/leaderboard-refresh-runs';
import { LeaderboardSnapshotRepository } from './leaderboard/leaderboard-snapshot.repository';
import { LeaderboardSnapshots } from './leaderboard/leaderboard-snapshots';
import { LeaderboardStore } from './leaderboard/leaderboard-store';
import { RefreshRunRepository } from './leaderboard/refresh-run.repository';
import { SnapshotRunRepository } from './leaderboard/snapshot-run.repository';
import { BalanceMovements } from './ledger/balance-movements';
import { BalanceRepository } from './ledger/balance.repository';
import { Ledger } from './ledger/ledger';
import { LedgerEntryRepository } from './ledger/ledger-entry.repository';
import { RewardGrants } from './ledger/reward-grants';
import { BadgeRepository } from './progression/badge.repository';
import { Badges } from './progression/badges';
import { LevelSetRepository } from './progression/level-set.repository';
import { Levels } from './progression/levels';
import { MilestoneRepository } from './progression/milestone.repository';
import { Milestones } from './progression/milestones';
import { ReachedMilestoneRepository } from './progression/reached-milestone.repository';
import { UserBadgeRepository } from './progression/user-badge.repository';
import { ConversionReversalRepository } from './reversals/conversion-reversal.repository';
import { EventReversals } from './reversals/event-reversals';
import { BalanceDues } from './ledger/balance-dues';
import { IncentiveSettingsRepository } from './settings/incentive-settings.repository';
import { IncentiveSettings } from './settings/incentive-settings';
import { ReferralCreditReversals } from './reversals/referral-credit-reversals';
import { ActiveUserRepository } from './series/active-user.repository';
import { IncentiveBucketRepository } from './series/incentive-bucket.repository';
import { IncentiveSeries } from './series/incentive-series';
import { EngagementUserRepository } from './streaks/engagement-user.repository';
import { StreakDefinitionRepository } from './streaks/streak-definition.repository';
import { StreakDefinitions } from './streaks/streak-definitions';
import { StreakRewards } from './streaks/streak-rewards';
import { Streaks } from './streaks/streaks';

/** Every collection of the service behind its repository. */
export function incentiveRepositories(db: Connection) {
  return {
    actions: new ActionRepository(db),
    events: new IncentiveEventRepository(db),
    claims: new EventClaimRepository(db),
    entries: new LedgerEntryRepository(db),
    balances: new BalanceRepository(db),
    badges: new BadgeRepository(db),
    awards: new UserBadgeRepository(db),
    levelSets: new LevelSetRepository(db),
    milestones: new MilestoneRepository(db),
    reached: new ReachedMilestoneRepository(db),
    catchUps: new BoardCatchUpRepository(db),
    snapshots: new LeaderboardSnapshotRepository(db),
    snapshotRuns: new SnapshotRunRepository(db),
    refreshRuns: new RefreshRunRepository(db),
    buckets: new IncentiveBucketRepository(db),
    activeUsers: new ActiveUserRepository(db),
    conversionReversals: new ConversionReversalRepository(db),
    streakDefinitions: new StreakDefinitionRepository(db),
    engagementUsers: new EngagementUserRepository(db),
    boosts: new BoostRepository(db),
    settings: new IncentiveSettingsRepository(db),
  };
}

export interface IncentiveDependencies {
  db: Connection;
  /** The leaderboards (the service works while it is down: see leaderboard.ts). */
  redis: Redis;
  redisKeyPrefix: string;
  outbox: Outbox;
  logger: Logger;
  /** How many entries a period's snapshot keeps. */
  snapshotSize?: number;
  claimLeaseMs?: number;
  /** Which processes are alive: claims of a dead one are taken over at once (leases alone decide without it). */
  liveness?: HolderLiveness;
}

/**
 * The service's parts, wired: repositories, then the domain modules that
 * use them. main.ts serves them (with its settings, Redis and lifecycle),
 * and the specs drive the same service directly, so the wiring is written
 * once.
 */
export function incentiveModules(deps: IncentiveDependencies) {
  const { db, outbox, logger } = deps;
  const stored = incentiveRepositories(db);
  const leaderboard = new Leaderboard(stored.balances, stored.catchUps, new LeaderboardStore(deps.redis, deps.redisKeyPrefix), logger);
  const actions = new Actions(stored.actions);
  const series = new IncentiveSeries(stored.buckets, stored.activeUsers, actions, logger);
  const settings = new IncentiveSettings(stored.settings);
  // Every balance change reaches the board in the same flow; every entry written, the engine's series.
  const ledger = new Ledger(
    stored.entries,
    stored.balances,
    logger,
    (appId, userId, state) => leaderboard.publish(appId, userId, state),
    (appId, entries) => series.countEntries(appId, entries),
    // Every credit takes the app's expiry terms of the moment.
    (appId) => settings.terms(appId),
  );
  const badges = new Badges(stored.badges, stored.awards, outbox);
  const levels = new Levels(stored.levelSets, badges);
  const milestones = new Milestones(stored.milestones, stored.reached, badges);
  const grants = new RewardGrants(ledger, levels, milestones, badges, outbox, logger);
  const claims = new EventClaims(stored.claims, deps.claimLeaseMs, deps.liveness);
  const streakDefinitions = new StreakDefinitions(stored.streakDefinitions, actions, badges);
  const streaks = new Streaks(streakDefinitions, stored.engagementUsers, new StreakRewards(ledger, grants, badges, logger), outbox, logger);
  const boosts = new Boosts(stored.boosts);
  const recorder = new EventRecorder({ events: stored.events, actions, levels, ledger, grants, claims, outbox, logger, series, streaks, boosts });
  const singleEvents = new SingleEventCommit(recorder);
  const movements = new BalanceMovements(ledger, levels, grants);
  const snapshots = new LeaderboardSnapshots(stored.balances, stored.snapshots, stored.snapshotRuns, logger, deps.snapshotSize);
  const refreshRuns = new LeaderboardRefreshRuns(stored.refreshRuns, leaderboard, logger);
  const reversals = new ReferralCreditReversals(ledger, stored.conversionReversals);
  const eventReversals = new EventReversals(ledger, stored.events, outbox);
  const dues = new BalanceDues(ledger, stored.balances, outbox, logger);
  return {
    stored,
    actions,
    recorder,
    singleEvents,
    movements,
    levels,
    badges,
    milestones,
    leaderboard,
    snapshots,
    series,
    refreshRuns,
    ledger,
    grants,
    claims,
    reversals,
    streakDefinitions,
    streaks,
    boosts,
    settings,
    eventReversals,
    dues,
  };
}

export type IncentiveModules = ReturnType<typeof incentiveModules>;
