import type { Connection } from 'mongoose';
import { crashPoint } from '@ris/config';
import { domainEvent, stableEventId, type Outbox, type OutboxCarrier } from '@ris/events';
import type { Logger } from '@ris/logging';
import { AppScoped, SerialByKey } from '@ris/mongo';
import { endpointModel, type EndpointDoc } from './endpoint.model';
import { ENDPOINT_DISABLED_EVENT_TYPE } from '../events/webhook-events';
import { webhookEndpointsDisabled } from '../dispatch/webhook-metrics';

/** WEBHOOK_ENDPOINT_DISABLED: the log event operators alert on. */
export const ENDPOINT_DISABLED_LOG_EVENT = 'WEBHOOK_ENDPOINT_DISABLED';

export function endpointDisabledEvent(endpoint: EndpointDoc) {
  const disabledAt = endpoint.disabledAt ?? new Date();
  return domainEvent(
    ENDPOINT_DISABLED_EVENT_TYPE,
    endpoint.appId,
    {
      webhookId: endpoint._id,
      url: endpoint.url,
      reason: 'FAILING',
      failingSince: endpoint.failingSince?.toISOString() ?? null,
      disabledAt: disabledAt.toISOString(),
    },
    // One event per disabling: re-enabled and disabled again later is a new one.
    { id: stableEventId(ENDPOINT_DISABLED_EVENT_TYPE, endpoint.appId, endpoint._id, disabledAt.toISOString()), occurredAt: disabledAt },
  );
}

/**
 * Tracks each endpoint's failure streak: the first failure since the last
 * success sets failingSince, a success clears it, and a failure when the
 * streak is older than WEBHOOK_DISABLE_AFTER_MS disables the endpoint.
 * Every write is a conditional single-document update, so concurrent
 * attempts agree (on MongoDB across replicas); this process's writes to an
 * endpoint run one at a time, because FerretDB v1 runs a conditional update
 * as a read then a write, and two attempts could both disable it (two
 * webhook.endpoint_disabled events).
 */
export class EndpointHealth {
  private readonly endpoints: AppScoped<EndpointDoc>;
  private readonly writes = new SerialByKey();
  /** webhook.endpoint_disabled, stored with the disabling. */
  private readonly events: OutboxCarrier;

  constructor(
    db: Connection,
    outbox: Outbox,
    private readonly logger: Logger,
    private readonly disableAfterMs: number,
  ) {
    this.endpoints = new AppScoped(endpointModel(db));
    // The relay's clean-up of an endpoint is one more of this process's writes to it.
    this.events = outbox.carrier(this.endpoints.model, { lock: { run: (doc, work) => this.writes.run(doc._id, work) } });
  }

  async succeeded(endpoint: EndpointDoc): Promise<void> {
    if (endpoint.failingSince === null) return;
    await this.writes.run(endpoint._id, () =>
      this.endpoints.updateOne(endpoint.appId, { _id: endpoint._id, failingSince: { $ne: null } }, { $set: { failingSince: null } }),
    );
  }

  failed(endpoint: EndpointDoc, at: Date): Promise<void> {
    return this.writes.run(endpoint._id, () => this.recordFailure(endpoint, at));
  }

  private async recordFailure(endpoint: EndpointDoc, at: Date): Promise<void> {
    if (endpoint.failingSince === null) {
      await this.endpoints.updateOne(endpoint.appId, { _id: endpoint._id, failingSince: null }, { $set: { failingSince: at } });
      return;
    }
    if (!endpoint.enabled || at.getTime() - endpoint.failingSince.getTime() < this.disableAfterMs) return;
    // The event is stored with the disabling (one update) and published right after it.
    const carried = this.events.carry([endpointDisabledEvent({ ...endpoint, enabled: false, disabledAt: at })], at);
    const disabled = await this.endpoints.findOneAndUpdate(
      endpoint.appId,
      { _id: endpoint._id, enabled: true, failingSince: { $lte: new Date(at.getTime() - this.disableAfterMs) } },
      carried.update({ $set: { enabled: false, disabledReason: 'FAILING', disabledAt: at, updatedAt: at } }),
    );
    // null: another attempt (or replica) disabled it first, or it recovered.
    if (!disabled) return;
    crashPoint('webhook.endpoint_disabled');
    carried.written(disabled);
    webhookEndpointsDisabled.inc();
    this.logDisabled(disabled);
  }

  private logDisabled(endpoint: EndpointDoc): void {
    this.logger.warn(
      {
        event: ENDPOINT_DISABLED_LOG_EVENT,
        appId: endpoint.appId,
        webhookId: endpoint._id,
        url: endpoint.url,
        failingSince: endpoint.failingSince,
      },
      `${ENDPOINT_DISABLED_LOG_EVENT}: webhook endpoint disabled after failing for ${Math.round(this.disableAfterMs / 3_600_000)} h`,
    );
  }

  /**
   * Endpoints a release from before the events were stored with the
   * disabling left disabled with their event still owed (it died between
   * the two writes): the event is stored now, with the note cleared, in
   * one update. The event id is stable, so storing it again is harmless.
   */
  async announcePendingDisabled(): Promise<void> {
    // Across apps on purpose (a maintenance pass); each write below carries the appId.
    const pending = await this.endpoints.model.find({ disabledEventPending: true }).limit(100).lean<EndpointDoc[]>().exec();
    for (const endpoint of pending) {
      const carried = this.events.carry([endpointDisabledEvent(endpoint)]);
      const cleared = await this.writes.run(endpoint._id, () =>
        this.endpoints.findOneAndUpdate(
          endpoint.appId,
          { _id: endpoint._id, disabledEventPending: true },
          carried.update({ $set: { disabledEventPending: false } }),
        ),
      );
      if (cleared) carried.written(cleared);
    }
  }
}
