import type { MessageInitShape } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import type { RecordClickOutcome, RecordClickRequestSchema, RecordClickResponse, ReferralService } from '@ris/contracts';
import { GroupCommit } from '@ris/mongo';
import { Code, ConnectError, fromItemError, toItemError } from '@ris/rpc';
import { batched, busy, notDeployedYet, openedBy, type Batched } from './batched-call';

type Click = MessageInitShape<typeof RecordClickRequestSchema>;

/** Calls allowed in flight at once; the clicks that arrive meanwhile wait for the next. */
const CALLS_IN_FLIGHT = 4;
/** Most clicks one call carries. */
const CLICKS_PER_CALL = 500;
/** Most clicks waiting for a call; more are answered 503 at once. */
const MAX_WAITING = 5_000;

/**
 * Clicks are the busiest request of the referral product and the cheapest
 * to store (the referral service stores the clicks of a moment together),
 * so per click the hop to the service (HTTP/2, Connect, protobuf, a
 * process each way) cost more than the store. The clicks that arrive
 * together (one turn of the event loop, or while CALLS_IN_FLIGHT calls are
 * out) go in one RecordClicks call, which answers each on its own: an
 * unknown code fails its own request only, with the error a single call
 * would have had. A click is answered once it is stored, as before; alone,
 * it waits one turn of the event loop.
 */
export class ClickBatch {
  private readonly commit: GroupCommit<Batched<Click>, RecordClickOutcome['outcome']>;

  constructor(client: Client<typeof ReferralService>) {
    this.commit = new GroupCommit(
      async (batch) => {
        const clicks = batch.map((b) => b.item);
        try {
          const { outcomes } = await client.recordClicks({ clicks }, openedBy(batch));
          if (outcomes.length !== clicks.length) throw new ConnectError(`${outcomes.length} outcomes for ${clicks.length} clicks`, Code.Internal);
          return outcomes.map((o) => o.outcome);
        } catch (err) {
          if (!notDeployedYet(err)) throw err;
          const single = await Promise.allSettled(batch.map((b) => client.recordClick(b.item, openedBy([b]))));
          return single.map((r) =>
            r.status === 'fulfilled' ? { case: 'click' as const, value: r.value } : { case: 'error' as const, value: toItemError(r.reason) },
          );
        }
      },
      { maxBatch: CLICKS_PER_CALL, concurrency: CALLS_IN_FLIGHT, maxQueued: MAX_WAITING, overloaded: busy },
    );
  }

  async record(click: Click): Promise<RecordClickResponse> {
    const outcome = await this.commit.add(batched(click));
    if (outcome.case === 'click') return outcome.value;
    if (outcome.case === 'error') throw fromItemError(outcome.value);
    throw new ConnectError('the click has no outcome', Code.Internal);
  }
}
