import type { ServiceImpl } from '@connectrpc/connect';
import { IncentiveService } from '@ris/contracts';
import { rpcService, type RpcService } from '@ris/rpc';
import { actionCalls } from './actions/actions.rpc';
import { boostCalls } from './boosts/boosts.rpc';
import { eventReversalCalls } from './reversals/event-reversals.rpc';
import { settingsCalls } from './settings/settings.rpc';
import { eventCalls } from './events/events.rpc';
import type { IncentiveModules } from './incentive-modules';
import { leaderboardCalls } from './leaderboard/leaderboard.rpc';
import { ledgerCalls } from './ledger/ledger.rpc';
import { progressionCalls } from './progression/progression.rpc';
import { seriesCalls } from './series/series.rpc';
import { streakCalls } from './streaks/streaks.rpc';

/**
 * The incentive service at its edge: each capability's calls (its
 * `*.rpc.ts`), together. Every call acts for the app of its request
 * (tenantOf): none is unscoped (the referral events that fire actions
 * arrive through the event bus, not as calls, each with its appId).
 */
export function incentiveService(modules: IncentiveModules): RpcService {
  const impl: ServiceImpl<typeof IncentiveService> = {
    ...actionCalls(modules.actions),
    ...eventCalls(modules.recorder, modules.singleEvents),
    ...seriesCalls(modules.series),
    ...ledgerCalls(modules.movements),
    ...progressionCalls(modules.levels, modules.badges, modules.milestones),
    ...leaderboardCalls(modules.leaderboard, modules.movements, modules.refreshRuns, modules.snapshots),
    ...streakCalls(modules.streakDefinitions, modules.streaks),
    ...boostCalls(modules.boosts),
    ...settingsCalls(modules.settings),
    ...eventReversalCalls(modules.eventReversals, modules.movements),
  };
  return rpcService(IncentiveService, impl, { tenant: { unscoped: {} } });
}
