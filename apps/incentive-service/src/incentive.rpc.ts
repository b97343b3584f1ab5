import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  ActionType,
  BalanceSort,
  LeaderboardPeriod,
  LedgerCause as LedgerCauseEnum,
  MilestoneMetric,
  TimeseriesInterval,
  enumName,
  type EventInput as EventInputMessage,
  type IncentiveService,
  type LevelRewards,
  type MilestoneRewards,
} from '@ris/contracts';
import type { SeriesInterval } from '@ris/mongo';
import { ConnectError, errorReason, invalidArgument, pageFromRequest, pageReply, requiredField, toItemError } from '@ris/rpc';
import type { ActionTypeName } from './actions/action.model';
import type { Actions } from './actions/actions';
import type { BalanceMovements, BalanceSortName } from './ledger/balance-movements';
import type { Badges } from './progression/badges';
import { checkUserId } from './definitions/definition-key';
import type { IncentiveSeries } from './series/incentive-series';
import type { LedgerCause } from './ledger/ledger-cause';
import {
  actionMessage,
  badgeMessage,
  balanceMessage,
  eventMessage,
  eventResultMessage,
  leaderboardEntryMessage,
  ledgerEntryMessage,
  levelMessage,
  milestoneMessage,
  reachedMilestoneMessage,
  refreshRunMessage,
  snapshotMessage,
  userBadgeMessage,
} from './incentive-messages';
import type { Leaderboard } from './leaderboard/leaderboard';
import type { LeaderboardRefreshRuns } from './leaderboard/leaderboard-refresh-runs';
import type { LeaderboardSnapshots } from './leaderboard/leaderboard-snapshots';
import type { LevelDef } from './progression/level-progress';
import type { Levels } from './progression/levels';
import type { MilestoneMetricName } from './progression/milestone-rules';
import type { MilestoneRewardsDoc } from './progression/milestone.model';
import type { Milestones } from './progression/milestones';
import { periodKey, type Period } from './leaderboard/period-keys';
import type { EventInput, EventRecorder } from './events/record-events';

export interface IncentiveParts {
  actions: Actions;
  recorder: EventRecorder;
  movements: BalanceMovements;
  levels: Levels;
  badges: Badges;
  milestones: Milestones;
  leaderboard: Leaderboard;
  snapshots: LeaderboardSnapshots;
  series: IncentiveSeries;
  refreshRuns: LeaderboardRefreshRuns;
}


const actionType = (t: ActionType) => enumName(ActionType, t) as ActionTypeName | undefined;
const metric = (m: MilestoneMetric) => enumName(MilestoneMetric, m) as MilestoneMetricName | undefined;
const period = (p: LeaderboardPeriod) => (enumName(LeaderboardPeriod, p) as Period | undefined) ?? 'ALL_TIME';
const ledgerCause = (c: LedgerCauseEnum) => (enumName(LedgerCauseEnum, c) as LedgerCause | undefined) ?? null;
/** HOUR or DAY; a series request without one is malformed. */
function seriesInterval(value: TimeseriesInterval): SeriesInterval {
  const name = enumName(TimeseriesInterval, value) as SeriesInterval | undefined;
  if (!name) throw invalidArgument('interval is required');
  return name;
}
function timeOf(ts: Timestamp | undefined, field: string): Date {
  if (!ts) throw invalidArgument(`${field} is required`);
  return timestampDate(ts);
}
const date = (ts: Timestamp | undefined) => (ts ? timestampDate(ts) : undefined);

function levelRewards(r: LevelRewards | undefined): LevelDef['rewards'] {
  return { coins: r?.coins ?? 0, badgeKey: r?.badgeKey ?? null, perks: r?.perks ?? [] };
}

function milestoneRewards(r: MilestoneRewards | undefined): MilestoneRewardsDoc {
  return { coins: r?.coins ?? 0, xp: r?.xp ?? 0, tokens: r?.tokens ?? 0, badgeKey: r?.badgeKey ?? null };
}

function eventInput(e: EventInputMessage | undefined): EventInput {
  if (!e) throw invalidArgument('event is required');
  return {
    userId: e.userId,
    actionKey: e.actionKey,
    idempotencyKey: e.idempotencyKey ?? null,
    operationKey: e.operationKey || null,
    metadata: e.metadata ?? null,
    source: 'API',
    sourceEventId: null,
  };
}

const SORTS: Record<BalanceSort, BalanceSortName> = {
  [BalanceSort.UNSPECIFIED]: 'xp',
  [BalanceSort.XP]: 'xp',
  [BalanceSort.COINS]: 'coins',
  [BalanceSort.TOKENS]: 'tokens',
};

/** One event's refusal in a bulk answer: its public code, and no internals for anything without one. */
function eventError(err: ConnectError): { code: string; message: string } {
  const { reason } = errorReason(err);
  return reason ? { code: reason, message: err.rawMessage } : { code: 'INTERNAL', message: 'Internal error' };
}

export function incentiveRpc(parts: IncentiveParts): ServiceImpl<typeof IncentiveService> {
  const { actions, recorder, movements, levels, badges, milestones, leaderboard, snapshots, series, refreshRuns } = parts;
  return {
    // --- actions
    async createAction(req) {
      const type = actionType(req.type);
      if (!type) throw invalidArgument('type is required');
      const action = await actions.create(requiredField(req.appId, 'appId'), {
        key: req.key,
        name: req.name,
        type,
        coins: req.coins,
        xp: req.xp,
        tokens: req.tokens,
        cooldownSeconds: req.cooldownSeconds,
        maxRepeats: req.maxRepeats ?? null,
        enabled: req.enabled ?? true,
        description: req.description ?? null,
      }, req.operationKey);
      return { action: actionMessage(action) };
    },
    async getAction(req) {
      return { action: actionMessage(await actions.get(requiredField(req.appId, 'appId'), req.key)) };
    },
    async listActions(req) {
      const page = await actions.list(requiredField(req.appId, 'appId'), pageFromRequest(req.page), { type: actionType(req.type), enabled: req.enabled });
      return { actions: page.items.map(actionMessage), page: pageReply(page) };
    },
    async updateAction(req) {
      const action = await actions.update(requiredField(req.appId, 'appId'), req.key, {
        name: req.name,
        type: actionType(req.type),
        coins: req.coins,
        xp: req.xp,
        tokens: req.tokens,
        cooldownSeconds: req.cooldownSeconds,
        maxRepeats: req.clearMaxRepeats ? null : req.maxRepeats,
        enabled: req.enabled,
        description: req.description,
      });
      return { action: actionMessage(action) };
    },

    // --- events
    async recordEvent(req) {
      const [outcome] = await recorder.record(requiredField(req.appId, 'appId'), [eventInput(req.event)]);
      if (outcome instanceof ConnectError) throw outcome;
      return { result: eventResultMessage(outcome.event, outcome.duplicate) };
    },
    async recordEvents(req) {
      const outcomes = await recorder.record(requiredField(req.appId, 'appId'), req.events.map(eventInput));
      return {
        outcomes: outcomes.map((o) =>
          o instanceof ConnectError
            ? { outcome: { case: 'error' as const, value: eventError(o) } }
            : { outcome: { case: 'result' as const, value: eventResultMessage(o.event, o.duplicate) } },
        ),
      };
    },
    async listEvents(req) {
      const page = await recorder.list(requiredField(req.appId, 'appId'), pageFromRequest(req.page), {
        userId: req.userId,
        actionKey: req.actionKey,
        from: date(req.from),
        to: date(req.to),
      });
      return { events: page.items.map(eventMessage), page: pageReply(page) };
    },

    async getActionTimeseries(req) {
      const found = await series.actionSeries(requiredField(req.appId, 'appId'), req.actionKey, seriesInterval(req.interval), timeOf(req.from, 'from'), timeOf(req.to, 'to'));
      return { buckets: found.buckets.map((b) => ({ ...b, start: timestampFromDate(b.start) })), from: timestampFromDate(found.from), to: timestampFromDate(found.to) };
    },
    async getEngineTimeseries(req) {
      const found = await series.engineSeries(requiredField(req.appId, 'appId'), seriesInterval(req.interval), timeOf(req.from, 'from'), timeOf(req.to, 'to'));
      return {
        totals: found.totals,
        buckets: found.buckets.map(({ start, ...figures }) => ({ start: timestampFromDate(start), figures })),
        from: timestampFromDate(found.from),
        to: timestampFromDate(found.to),
      };
    },

    // --- balances
    async getBalance(req) {
      return { balance: balanceMessage(await movements.view(requiredField(req.appId, 'appId'), req.userId)) };
    },
    async listBalances(req) {
      const page = await movements.list(requiredField(req.appId, 'appId'), pageFromRequest(req.page), SORTS[req.sort] ?? 'xp', req.level);
      return { balances: page.items.map(balanceMessage), page: pageReply(page) };
    },
    async listTransactions(req) {
      const page = await movements.transactions(requiredField(req.appId, 'appId'), req.userId, pageFromRequest(req.page));
      return { transactions: page.items.map(ledgerEntryMessage), page: pageReply(page) };
    },
    async debit(req) {
      const r = await movements.debit(requiredField(req.appId, 'appId'), { ...req, description: req.description ?? null, cause: ledgerCause(req.cause) });
      return { entry: ledgerEntryMessage(r.entry), balance: balanceMessage(r.balance), replayed: r.replayed };
    },
    async adjustBalance(req) {
      const r = await movements.adjust(requiredField(req.appId, 'appId'), req);
      return { entry: ledgerEntryMessage(r.entry), balance: balanceMessage(r.balance), replayed: r.replayed };
    },
    async credit(req) {
      const r = await movements.credit(requiredField(req.appId, 'appId'), { ...req, description: req.description ?? null, cause: ledgerCause(req.cause) });
      return { entry: ledgerEntryMessage(r.entry), balance: balanceMessage(r.balance), replayed: r.replayed };
    },

    // --- levels
    async listLevels(req) {
      return { levels: (await levels.list(requiredField(req.appId, 'appId'))).map(levelMessage) };
    },
    async createLevel(req) {
      if (!req.level) throw invalidArgument('level is required');
      const level = await levels.create(requiredField(req.appId, 'appId'), {
        level: req.level.level,
        name: req.level.name,
        xpThreshold: req.level.xpThreshold,
        rewards: levelRewards(req.level.rewards),
      }, req.operationKey);
      return { level: levelMessage(level) };
    },
    async updateLevel(req) {
      const level = await levels.update(requiredField(req.appId, 'appId'), req.level, {
        name: req.name,
        xpThreshold: req.xpThreshold,
        rewards: req.rewards ? levelRewards(req.rewards) : undefined,
      });
      return { level: levelMessage(level) };
    },
    async deleteLevel(req) {
      await levels.delete(requiredField(req.appId, 'appId'), req.level);
      return {};
    },

    // --- badges
    async listBadges(req) {
      const page = await badges.list(requiredField(req.appId, 'appId'), pageFromRequest(req.page));
      return { badges: page.items.map(badgeMessage), page: pageReply(page) };
    },
    async createBadge(req) {
      const badge = await badges.create(requiredField(req.appId, 'appId'), {
        key: req.key,
        name: req.name,
        description: req.description ?? null,
        imageUrl: req.imageUrl ?? null,
      }, req.operationKey);
      return { badge: badgeMessage(badge) };
    },
    async updateBadge(req) {
      const badge = await badges.update(requiredField(req.appId, 'appId'), req.key, { name: req.name, description: req.description, imageUrl: req.imageUrl });
      return { badge: badgeMessage(badge) };
    },
    async listUserBadges(req) {
      const page = await badges.listForUser(requiredField(req.appId, 'appId'), checkUserId(req.userId), pageFromRequest(req.page));
      return { badges: page.items.map((i) => userBadgeMessage(i.award, i.badge)), page: pageReply(page) };
    },
    async listBadgeHolders(req) {
      const { badge, awards } = await badges.holders(requiredField(req.appId, 'appId'), req.key, pageFromRequest(req.page));
      return { holders: awards.items.map((award) => userBadgeMessage(award, badge)), page: pageReply(awards) };
    },
    async awardBadge(req) {
      const appId = requiredField(req.appId, 'appId');
      const badge = await badges.get(appId, req.key);
      const { award, awarded } = await badges.award(appId, badge, checkUserId(req.userId), 'MANUAL', null, req.operationKey);
      return { userBadge: userBadgeMessage(award, badge), awarded };
    },

    // --- milestones
    async listMilestones(req) {
      const page = await milestones.list(requiredField(req.appId, 'appId'), pageFromRequest(req.page));
      return { milestones: page.items.map(milestoneMessage), page: pageReply(page) };
    },
    async getMilestone(req) {
      return { milestone: milestoneMessage(await milestones.get(requiredField(req.appId, 'appId'), req.key)) };
    },
    async createMilestone(req) {
      const m = metric(req.metric);
      if (!m) throw invalidArgument('metric is required');
      const milestone = await milestones.create(requiredField(req.appId, 'appId'), {
        key: req.key,
        name: req.name,
        description: req.description ?? null,
        metric: m,
        threshold: req.threshold,
        rewards: milestoneRewards(req.rewards),
      }, req.operationKey);
      return { milestone: milestoneMessage(milestone) };
    },
    async updateMilestone(req) {
      const milestone = await milestones.update(requiredField(req.appId, 'appId'), req.key, {
        name: req.name,
        description: req.description,
        metric: metric(req.metric),
        threshold: req.threshold,
        rewards: req.rewards ? milestoneRewards(req.rewards) : undefined,
      });
      return { milestone: milestoneMessage(milestone) };
    },
    async deleteMilestone(req) {
      await milestones.delete(requiredField(req.appId, 'appId'), req.key);
      return {};
    },
    async listReachedMilestones(req) {
      const page = await milestones.listReached(requiredField(req.appId, 'appId'), pageFromRequest(req.page), {
        userId: req.userId ? checkUserId(req.userId) : undefined,
        key: req.key || undefined,
      });
      return { milestones: page.items.map(reachedMilestoneMessage), page: pageReply(page) };
    },

    // --- leaderboard
    async getLeaderboard(req) {
      const p = period(req.period);
      const entries = await leaderboard.top(requiredField(req.appId, 'appId'), p, req.limit || 10);
      return { entries: entries.map(leaderboardEntryMessage), periodKey: periodKey(p, new Date()) };
    },
    async getLeaderboardEntry(req) {
      const entry = await leaderboard.entry(requiredField(req.appId, 'appId'), period(req.period), checkUserId(req.userId));
      return { entry: leaderboardEntryMessage(entry) };
    },
    async getLeaderboardEntries(req) {
      const entries = await leaderboard.entries(requiredField(req.appId, 'appId'), period(req.period), req.userIds.map((userId) => checkUserId(userId, 'userIds')));
      return {
        outcomes: entries.map((entry) =>
          entry instanceof ConnectError
            ? { outcome: { case: 'error' as const, value: toItemError(entry) } }
            : { outcome: { case: 'entry' as const, value: leaderboardEntryMessage(entry) } },
        ),
      };
    },
    async setLeaderboardScore(req) {
      const appId = requiredField(req.appId, 'appId');
      const userId = checkUserId(req.userId);
      await movements.setScore(appId, { userId, xp: req.xp, coins: req.coins ?? null });
      return { entry: leaderboardEntryMessage(await leaderboard.entry(appId, 'ALL_TIME', userId)) };
    },
    async refreshLeaderboard(req) {
      const started = Date.now();
      const users = await leaderboard.refresh(requiredField(req.appId, 'appId'));
      return { users, durationMs: Date.now() - started };
    },
    async startLeaderboardRefresh(req) {
      const { run, started } = await refreshRuns.start(requiredField(req.appId, 'appId'), req.operationKey);
      return { run: refreshRunMessage(run), started };
    },
    async getLeaderboardRefreshRun(req) {
      return { run: refreshRunMessage(await refreshRuns.get(requiredField(req.appId, 'appId'), req.runId)) };
    },
    async listLeaderboardRefreshRuns(req) {
      const page = await refreshRuns.list(requiredField(req.appId, 'appId'), pageFromRequest(req.page));
      return { runs: page.items.map(refreshRunMessage), page: pageReply(page) };
    },
    async listLeaderboardSnapshots(req) {
      const p = enumName(LeaderboardPeriod, req.period) as Period | undefined;
      const page = await snapshots.list(requiredField(req.appId, 'appId'), pageFromRequest(req.page), p);
      return { snapshots: page.items.map(snapshotMessage), page: pageReply(page) };
    },
  };
}

