import type { MessageInitShape } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import type { RecordClickRequestSchema, RecordClickResponse, ReferralService } from '@ris/contracts';
import { GroupCommit } from '@ris/mongo';
import { batched, busy, itemOutcomes, itemValue, openedBy, type Batched, type ItemOutcome } from './batched-call';

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
  private readonly commit: GroupCommit<Batched<Click>, ItemOutcome<'click', RecordClickResponse>>;

  constructor(client: Client<typeof ReferralService>) {
    this.commit = new GroupCommit(
      (batch) =>
        itemOutcomes(
          'click',
          batch.length,
          async () => (await client.recordClicks({ clicks: batch.map((b) => b.item) }, openedBy(batch))).outcomes.map((o) => o.outcome),
          (i) => client.recordClick(batch[i].item, openedBy([batch[i]])),
        ),
      { maxBatch: CLICKS_PER_CALL, concurrency: CALLS_IN_FLIGHT, maxQueued: MAX_WAITING, overloaded: busy },
    );
  }

  async record(click: Click): Promise<RecordClickResponse> {
    return itemValue('click', await this.commit.add(batched(click)));
  }
}
