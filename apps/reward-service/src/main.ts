// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { setting } from '@ris/config';
import { RewardService } from '@ris/contracts';
import { rpcService } from '@ris/rpc';
import { PeriodicTask, runService } from '@ris/service-runtime';
import { finishOpenMoves } from './moves/move-reward';
import { rewardRpc } from './reward.rpc';
import { RewardStore } from './rewards/reward-store';

// A move normally finishes within its request; one open this long lost its process.
const MOVE_ABANDONED_AFTER_MS = 30_000;

void runService({
  name: 'reward-service',
  defaultPort: 50053,
  settings: {
    // How often the recovery pass finishes reward moves (status, totals, events) a dead process left open.
    RECOVERY_INTERVAL_MS: setting.positiveInt(15_000),
  },
  build: ({ db, outbox, config, logger }) => {
    const store = new RewardStore(db, outbox);
    const recovery = new PeriodicTask(
      async () => {
        const finished = await finishOpenMoves(store, MOVE_ABANDONED_AFTER_MS, (err, move) =>
          logger.warn({ err, moveId: move._id }, 'reward move could not be finished; will retry'),
        );
        if (finished > 0) logger.info({ finished }, 'interrupted reward moves finished');
      },
      { intervalMs: config.RECOVERY_INTERVAL_MS, runAtStart: true, onError: (err) => logger.warn({ err }, 'reward recovery pass failed; will retry') },
    );
    return {
      services: [rpcService(RewardService, rewardRpc(store))],
      start: () => recovery.start(),
      stop: () => recovery.stop(),
    };
  },
});
