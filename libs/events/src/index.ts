export { domainEvent, stableEventId, type DomainEvent } from './domain-event';
export { EventBus, type EventBusOptions } from './event-bus';
export { EventConsumer, type EventConsumerOptions } from './event-consumer';
export { watchOutbox } from './event-metrics';
export {
  Outbox,
  OutboxCarrier,
  carriesEvents,
  type CarriedEvent,
  type Carried,
  type CarrierDoc,
  type CarrierLock,
  type CarrierRef,
  type LegacyOutboxEntry,
  type OutboxFields,
  type StoredEvents,
} from './outbox';
export { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
