import { create, type JsonObject } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  EventResultSchema,
  EventSource,
  IncentiveEventSchema,
  MilestoneMetric,
  RewardRefusal,
  enumValue,
  type EventInput as EventInputMessage,
  type EventResult,
  type IncentiveEvent,
  type IncentiveService,
} from '@ris/contracts';
import { ConnectError, errorReason, invalidArgument, pageFromRequest, pageReply, tenantOf, toConnectError } from '@ris/rpc';
import type { IncentiveEventDoc } from './incentive-event.model';
import type { EventInput, EventRecorder } from './record-events';
import type { SingleEventCommit } from './single-event-commit';

export function eventMessage(doc: IncentiveEventDoc): IncentiveEvent {
  return create(IncentiveEventSchema, {
    id: doc._id,
    userId: doc.userId,
    actionKey: doc.actionKey,
    idempotencyKey: doc.idempotencyKey ?? undefined,
    metadata: doc.metadataJson ? (JSON.parse(doc.metadataJson) as JsonObject) : undefined,
    source: enumValue(EventSource, doc.source),
    createdAt: timestampFromDate(doc.createdAt),
    rewarded: doc.result.rewarded ?? undefined,
    reason: enumValue(RewardRefusal, doc.result.reason),
    duplicates: doc.duplicates ?? 0,
  });
}

export function eventResultMessage(doc: IncentiveEventDoc, duplicate: boolean): EventResult {
  const r = doc.result;
  return create(EventResultSchema, {
    event: eventMessage(doc),
    balance: r.balance,
    levelUp: r.levelUp ? { fromLevel: r.levelUp.from, toLevel: r.levelUp.to } : undefined,
    badgesAwarded: r.badgesAwarded,
    milestonesReached: r.milestonesReached.map((m) => ({ ...m, metric: enumValue(MilestoneMetric, m.metric) })),
    duplicate,
    streaksExtended: r.streaksExtended ?? [],
    boost: r.boost ?? undefined,
    pendingUntil: r.pendingUntil ? timestampFromDate(new Date(r.pendingUntil)) : undefined,
  });
}

function eventInput(e: EventInputMessage | undefined): EventInput {
  if (!e) throw invalidArgument('event is required');
  return {
    userId: e.userId,
    actionKey: e.actionKey,
    idempotencyKey: e.idempotencyKey ?? null,
    operationKey: e.operationKey || null,
    metadata: e.metadata ?? null,
    source: 'API',
    sourceEventId: null,
    timeZone: e.timeZone ?? null,
  };
}

/** One event's refusal in a bulk answer: its public code, and no internals for anything without one. */
function eventError(thrown: Error): { code: string; message: string } {
  const err = ConnectError.from(toConnectError(thrown));
  const { reason } = errorReason(err);
  return reason ? { code: reason, message: err.rawMessage } : { code: 'INTERNAL', message: 'Internal error' };
}

const date = (ts: Timestamp | undefined) => (ts ? timestampDate(ts) : undefined);

type EventCalls = Pick<ServiceImpl<typeof IncentiveService>, 'recordEvent' | 'recordEvents' | 'listEvents'>;

/**
 * Events at the edge: one (recorded with the app's other single events of
 * the moment, see SingleEventCommit), a bulk call (each event answered on
 * its own), and the list.
 */
export function eventCalls(recorder: EventRecorder, singleEvents: SingleEventCommit): EventCalls {
  return {
    async recordEvent(req, ctx) {
      const recorded = await singleEvents.record(tenantOf(ctx), eventInput(req.event));
      return { result: eventResultMessage(recorded.event, recorded.duplicate) };
    },
    async recordEvents(req, ctx) {
      const outcomes = await recorder.record(tenantOf(ctx), req.events.map(eventInput));
      return {
        outcomes: outcomes.map((o) =>
          o instanceof Error
            ? { outcome: { case: 'error' as const, value: eventError(o) } }
            : { outcome: { case: 'result' as const, value: eventResultMessage(o.event, o.duplicate) } },
        ),
      };
    },
    async listEvents(req, ctx) {
      const page = await recorder.list(tenantOf(ctx), pageFromRequest(req.page), {
        userId: req.userId,
        actionKey: req.actionKey,
        from: date(req.from),
        to: date(req.to),
      });
      return { events: page.items.map(eventMessage), page: pageReply(page) };
    },
  };
}
