import { Counter } from 'prom-client';
import { domainEvent, stableEventId } from '@ris/events';
import type { Logger } from '@ris/logging';
import { ENDPOINT_DISABLED_EVENT_TYPE } from '../events/webhook-events';
import type { EndpointDoc } from './endpoint.model';
import type { EndpointRepository } from './endpoint.repository';

const webhookEndpointsDisabled = new Counter({
  name: 'ris_webhook_endpoints_disabled_total',
  help: 'Endpoints this process disabled after they failed every delivery for WEBHOOK_DISABLE_AFTER_MS',
});

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
 * endpoint run one at a time (the repository's lock), because FerretDB v1
 * runs a conditional update as a read then a write, and two attempts could
 * both disable it (two webhook.endpoint_disabled events).
 */
export class EndpointHealth {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly logger: Logger,
    private readonly disableAfterMs: number,
  ) {}

  async succeeded(endpoint: EndpointDoc): Promise<void> {
    if (endpoint.failingSince === null) return;
    await this.endpoints.clearFailing(endpoint);
  }

  async failed(endpoint: EndpointDoc, at: Date): Promise<void> {
    if (endpoint.failingSince === null) {
      await this.endpoints.startFailing(endpoint, at);
      return;
    }
    if (!endpoint.enabled || at.getTime() - endpoint.failingSince.getTime() < this.disableAfterMs) return;
    // The event is stored with the disabling (one update) and published right after it.
    const event = endpointDisabledEvent({ ...endpoint, enabled: false, disabledAt: at });
    const disabled = await this.endpoints.disable(endpoint, at, new Date(at.getTime() - this.disableAfterMs), [event]);
    // null: another attempt (or replica) disabled it first, or it recovered.
    if (!disabled) return;
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
    for (const endpoint of await this.endpoints.pendingDisabled(100)) await this.endpoints.announceDisabled(endpoint, [endpointDisabledEvent(endpoint)]);
  }
}
