import { createHash, randomUUID } from 'node:crypto';

/** What travels on the DOMAIN stream, JSON-encoded. */
export interface DomainEvent<T extends object = Record<string, unknown>> {
  /** Unique; also the JetStream Nats-Msg-Id, so republishing is deduplicated. */
  id: string;
  /** Dotted kind, e.g. referral.created; the subject is <prefix>.<type>. */
  type: string;
  appId: string;
  /** ISO 8601 UTC with milliseconds. */
  occurredAt: string;
  data: T;
}

/**
 * An event id derived from what the event is about (e.g. "referral.created",
 * referralId): a retried request that reaches the outbox again produces the
 * same id, so the event is stored and delivered once.
 */
export function stableEventId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function domainEvent<T extends object>(
  type: string,
  appId: string,
  data: T,
  options: { id?: string; occurredAt?: Date } = {},
): DomainEvent<T> {
  return {
    id: options.id ?? randomUUID(),
    type,
    appId,
    occurredAt: (options.occurredAt ?? new Date()).toISOString(),
    data,
  };
}
