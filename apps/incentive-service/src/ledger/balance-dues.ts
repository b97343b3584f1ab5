import { crashPoint, now } from '@ris/config';
import type { Carried, Outbox, OutboxCarrier } from '@ris/events';
import type { Logger } from '@ris/logging';
import { PeriodicTask } from '@ris/service-runtime';
import { coinsExpired } from '../events/incentive-domain-events';
import { dueMovements } from './balance-dues-plan';
import type { BalanceRepository } from './balance.repository';
import type { Ledger } from './ledger';

const PASS_BATCH = 200;
const MAX_ATTEMPTS = 50;

/**
 * The dues pass: pending credits released when their time comes, lots
 * expired when theirs does, as ledger entries under keys that exist once
 * (release:<event>, expiry:<user>:<lot>), written by the ledger's
 * compare-and-set like any movement. Replicas and a process killed
 * mid-pass change nothing twice: a key taken or a version moved sends the
 * writer back to the settled balance, where nothing is due any more.
 */
export class BalanceDues {
  private readonly events: OutboxCarrier;
  private task?: PeriodicTask;

  constructor(
    private readonly ledger: Ledger,
    private readonly balances: BalanceRepository,
    outbox: Outbox,
    private readonly logger: Logger,
  ) {
    this.events = ledger.entries.carrier(outbox);
  }

  start(intervalMs: number): void {
    this.task ??= new PeriodicTask(
      async () => {
        while ((await this.passDue()) === PASS_BATCH);
      },
      { intervalMs, runAtStart: true, onError: (err) => this.logger.warn({ err }, 'dues pass failed; will retry') },
    );
    this.task.start();
  }

  async stop(): Promise<void> {
    await this.task?.stop();
  }

  /** One batch of due balances; how many it looked at. */
  async passDue(limit = PASS_BATCH): Promise<number> {
    const at = now();
    const docs = await this.balances.due(at, limit);
    for (const doc of docs) {
      await this.settle(doc.appId, doc.userId, at).catch((err: unknown) => this.logger.warn({ err, appId: doc.appId }, 'could not settle what is due on a balance; the next pass retries'));
    }
    return docs.length;
  }

  /** Releases and expires what is due on one balance at `at`. */
  settle(appId: string, userId: string, at: Date): Promise<void> {
    return this.ledger.serialized(appId, userId, async () => {
      let { state } = await this.ledger.settled(appId, userId);
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const movements = dueMovements(state, userId, at);
        if (movements.length === 0) return;
        const carried: Array<Carried | null> = movements.map((m) => (m.reason === 'EXPIRY' ? this.events.carry([coinsExpired(appId, userId, m)], at) : null));
        const result = await this.ledger.append(appId, userId, state, movements, carried.map((c) => c?.fields ?? {}));
        // Written and applied, its events stored with it, not yet handed to the relay (the sweep publishes them).
        crashPoint('incentive.dues');
        result.entries.forEach((entry, i) => carried[i]?.written(entry));
        if (result.kind === 'applied') return;
        state = await this.ledger.afterConflict(appId, userId, attempt);
      }
      this.logger.warn({ appId }, 'dues not settled after many conflicts; the next pass retries');
    });
  }
}
