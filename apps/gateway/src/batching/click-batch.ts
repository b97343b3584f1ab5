import type { MessageInitShape } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import type { RecordClickOutcome, RecordClickRequestSchema, RecordClickResponse, ReferralService } from '@ris/contracts';
import { GroupCommit } from '@ris/mongo';
import { Code, ConnectError, fromItemError } from '@ris/rpc';

/** Calls allowed in flight at once; the clicks that arrive meanwhile wait for the next. */
const CALLS_IN_FLIGHT = 4;
/** Most clicks one call carries. */
const CLICKS_PER_CALL = 500;

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
 *
 * The service logs a batch under the request id of the request that opened it.
 */
export class ClickBatch {
  private readonly commit: GroupCommit<MessageInitShape<typeof RecordClickRequestSchema>, RecordClickOutcome>;

  constructor(client: Client<typeof ReferralService>) {
    this.commit = new GroupCommit(
      async (clicks) => {
        const { outcomes } = await client.recordClicks({ clicks });
        if (outcomes.length !== clicks.length) throw new ConnectError(`${outcomes.length} outcomes for ${clicks.length} clicks`, Code.Internal);
        return outcomes;
      },
      { maxBatch: CLICKS_PER_CALL, concurrency: CALLS_IN_FLIGHT },
    );
  }

  async record(click: MessageInitShape<typeof RecordClickRequestSchema>): Promise<RecordClickResponse> {
    const { outcome } = await this.commit.add(click);
    if (outcome.case === 'click') return outcome.value;
    if (outcome.case === 'error') throw fromItemError(outcome.value);
    throw new ConnectError('the click has no outcome', Code.Internal);
  }
}
