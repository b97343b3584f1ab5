export { domainEvent, stableEventId, type DomainEvent } from './domain-event';
export { EventBus, type EventBusOptions } from './event-bus';
export { EventConsumer, type EventConsumerOptions } from './event-consumer';
export { Outbox, type OutboxEntry } from './outbox';
export { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
