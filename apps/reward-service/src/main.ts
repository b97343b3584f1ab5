// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { setting } from '@ris/config';
import { runService } from '@ris/service-runtime';
import { HoldRelease } from './holds/hold-release';
import { MoveRecovery } from './moves/move-recovery';
import { rewardService } from './reward.rpc';
import { rewardStore } from './rewards/reward-store';

void runService({
  name: 'reward-service',
  defaultPort: 50053,
  settings: {
    // How often the recovery pass finishes reward moves (status, totals, events) a dead process left open.
    RECOVERY_INTERVAL_MS: setting.positiveInt(15_000),
    // How often rewards whose holding period is over are approved (a reward is payable up to this late).
    HOLD_RELEASE_INTERVAL_MS: setting.positiveInt(60_000),
    // How long a reward move or reversal may stay unfinished before the recovery pass takes it for one whose process died.
    MOVE_ABANDONED_AFTER_MS: setting.positiveInt(30_000),
  },
  build: ({ db, outbox, config, logger }) => {
    const store = rewardStore(db, outbox);
    const recovery = new MoveRecovery(store, logger, { intervalMs: config.RECOVERY_INTERVAL_MS, abandonedAfterMs: config.MOVE_ABANDONED_AFTER_MS });
    const holds = new HoldRelease(store, logger, { intervalMs: config.HOLD_RELEASE_INTERVAL_MS });
    return {
      services: [rewardService(store)],
      start: () => {
        recovery.start();
        holds.start();
      },
      stop: async () => {
        await Promise.all([recovery.stop(), holds.stop()]);
      },
    };
  },
});
