import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import type { Outbox } from '@ris/events';
import type { Logger } from '@ris/logging';
import type { HolderLiveness } from '@ris/service-runtime';
import { ActiveUserRepository } from './series/active-user.repository';
import { Actions } from './actions/actions';
import { BalanceMovements } from './ledger/balance-movements';
import { Badges } from './progression/badges';
import { EventClaims } from './events/event-claims';
import { IncentiveBucketRepository } from './series/incentive-bucket.repository';
import { IncentiveSeries } from './series/incentive-series';
import type { IncentiveParts } from './incentive.rpc';
import { Leaderboard } from './leaderboard/leaderboard';
import { LeaderboardRefreshRuns } from './leaderboard/leaderboard-refresh-runs';
import { LeaderboardSnapshots } from './leaderboard/leaderboard-snapshots';
import { LeaderboardStore } from './leaderboard/leaderboard-store';
import { Ledger } from './ledger/ledger';
import { Levels } from './progression/levels';
import { Milestones } from './progression/milestones';
import { EventRecorder } from './events/record-events';
import { RefreshRunRepository } from './leaderboard/refresh-run.repository';
import { RewardGrants } from './ledger/reward-grants';

export interface IncentiveEngine extends IncentiveParts {
  ledger: Ledger;
  grants: RewardGrants;
  claims: EventClaims;
}

/** Every part of the incentive service, wired; main.ts serves it, integration tests drive it directly. */
export function buildIncentiveEngine(deps: {
  db: Connection;
  redis: Redis;
  redisKeyPrefix: string;
  outbox: Outbox;
  logger: Logger;
  snapshotSize?: number;
  claimLeaseMs?: number;
  /** Which processes are alive: claims of a dead one are taken over at once (leases alone decide without it). */
  liveness?: HolderLiveness;
}): IncentiveEngine {
  const { db, outbox, logger } = deps;
  const leaderboard = new Leaderboard(db, new LeaderboardStore(deps.redis, deps.redisKeyPrefix), logger);
  const actions = new Actions(db);
  const series = new IncentiveSeries(new IncentiveBucketRepository(db), new ActiveUserRepository(db), actions, logger);
  // Every balance change reaches the board in the same flow; every entry written, the engine's series.
  const ledger = new Ledger(
    db,
    logger,
    (appId, userId, state) => leaderboard.publish(appId, userId, state),
    (appId, entries) => series.countEntries(appId, entries),
  );
  const badges = new Badges(db, outbox);
  const levels = new Levels(db, badges);
  const milestones = new Milestones(db, badges);
  const grants = new RewardGrants(ledger, levels, milestones, badges, outbox, logger);
  const claims = new EventClaims(db, deps.claimLeaseMs, deps.liveness);
  const recorder = new EventRecorder({ db, actions, levels, ledger, grants, claims, outbox, logger, series });
  const movements = new BalanceMovements(db, ledger, levels, grants);
  const snapshots = new LeaderboardSnapshots(db, logger, deps.snapshotSize);
  const refreshRuns = new LeaderboardRefreshRuns(new RefreshRunRepository(db), leaderboard, logger);
  return { actions, recorder, movements, levels, badges, milestones, leaderboard, snapshots, series, refreshRuns, ledger, grants, claims };
}
