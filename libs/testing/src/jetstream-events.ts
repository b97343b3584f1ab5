import { connect, JSONCodec } from 'nats';
import { e2eStack } from './e2e-stack';

const codec = JSONCodec<{ id: string; type: string; appId: string; occurredAt: string; data: Record<string, unknown> }>();

/**
 * Every event of one type on the stack's stream that matches the filter,
 * read with an ephemeral ordered consumer (nothing is acknowledged or taken
 * away from the services' durable consumers). `stream` and `subjectPrefix`
 * for a stack of its own.
 */
export async function readEvents(
  type: string,
  filter: (event: ReturnType<typeof codec.decode>) => boolean = () => true,
  options: { waitMs?: number; stream?: string; subjectPrefix?: string } = {},
) {
  const stack = e2eStack();
  const nc = await connect({ servers: stack.natsUrl });
  try {
    const js = nc.jetstream();
    // One subject (not filterSubjects): works on NATS 2.9 too (Debian's).
    const consumer = await js.consumers.get(options.stream ?? stack.eventsStream, {
      filterSubjects: `${options.subjectPrefix ?? stack.eventsSubjectPrefix}.${type}`,
    });
    const found: Array<ReturnType<typeof codec.decode>> = [];
    const messages = await consumer.fetch({ max_messages: 10_000, expires: options.waitMs ?? 1000 });
    for await (const message of messages) {
      const event = codec.decode(message.data);
      if (filter(event)) found.push(event);
      if (message.info.pending === 0) break;
    }
    return found;
  } finally {
    await nc.close();
  }
}

/** Polls until at least `count` matching events are on the stream (or the time is up). */
export async function waitForEvents(
  type: string,
  filter: Parameters<typeof readEvents>[1],
  count: number,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await readEvents(type, filter);
    if (events.length >= count || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Publishes events onto the stack's stream as a service's outbox relay
 * does (the event id as Nats-Msg-Id, so JetStream drops a repeat), or with
 * `dedupe: false` without one, so that a consumer really receives the same
 * event twice. `subjectPrefix` for a stack of its own.
 */
export async function publishEvents(
  events: Array<{ id: string; type: string }>,
  options: { dedupe?: boolean; subjectPrefix?: string } = {},
): Promise<void> {
  const stack = e2eStack();
  const nc = await connect({ servers: stack.natsUrl });
  try {
    const js = nc.jetstream();
    for (const event of events) {
      const subject = `${options.subjectPrefix ?? stack.eventsSubjectPrefix}.${event.type}`;
      await js.publish(subject, JSONCodec().encode(event), options.dedupe === false ? {} : { msgID: event.id });
    }
  } finally {
    await nc.close();
  }
}
