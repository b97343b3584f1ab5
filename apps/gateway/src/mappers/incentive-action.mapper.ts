import { create } from '@bufbuild/protobuf';
import {
  ActionType,
  EventSource,
  IncentiveEventSchema,
  MilestoneMetric,
  RewardRefusal,
  type Action as ActionMessage,
  type Amounts as AmountsMessage,
  type BadgeRef as BadgeRefMessage,
  type BalanceSummary as BalanceSummaryMessage,
  type EventResult as EventResultMessage,
  type IncentiveEvent as IncentiveEventMessage,
  type MilestoneRef as MilestoneRefMessage,
} from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';
import { BoostRef } from './incentive-boost.mapper';
import { StreakExtension } from './incentive-streak.mapper';

export const ActionTypes = publicEnum(ActionType);
export const RewardRefusals = publicEnum(RewardRefusal);
export const EventSources = publicEnum(EventSource);
export const MilestoneMetrics = publicEnum(MilestoneMetric);

export const Action = entity<ActionMessage>()('IncentiveAction', {
  key: z.string(),
  name: z.string(),
  type: ActionTypes.field(),
  coins: z.number(),
  xp: z.number(),
  tokens: z.number(),
  cooldown: from(
    z.number().int().openapi({ description: "Seconds after a user's last rewarded event of this action during which further events earn nothing" }),
    (a: ActionMessage) => a.cooldownSeconds,
  ),
  maxRepeats: z.number().int().nullable().openapi({ description: 'Rewarded events per user; null = unlimited' }),
  enabled: z.boolean(),
  description: z.string().nullable(),
  pendingDays: z.number().int().openapi({ description: 'Days its coins and tokens stay pending; 0 = available at once' }),
  createdAt: time(timestamp),
  updatedAt: time(timestamp),
});

export const Amounts = entity<AmountsMessage>()('Amounts', { coins: z.number(), xp: z.number(), tokens: z.number() });
export const BalanceSummary = entity<BalanceSummaryMessage>()('BalanceSummary', { coins: z.number(), xp: z.number(), tokens: z.number(), level: z.number().int() });
export const BadgeRef = entity<BadgeRefMessage>()('BadgeRef', { key: z.string(), name: z.string() });
export const MilestoneRef = entity<MilestoneRefMessage>()('MilestoneRef', { key: z.string(), name: z.string(), metric: MilestoneMetrics.field(), threshold: z.number() });

const EventHead = entity<IncentiveEventMessage>()(null, { id: z.string(), userId: z.string(), actionKey: z.string(), createdAt: time(timestamp) });

const amounts = (a: AmountsMessage | undefined) => (a ? Amounts.json(a) : null);

/** POST /incentives/events (docs/api.md#incentive-events). */
export const EventResult = entity<EventResultMessage>()('IncentiveEventResult', {
  // An answer without its event (never sent) shows an empty one, as it always did.
  event: from(EventHead.schema, (r: EventResultMessage) => EventHead.json(r.event ?? create(IncentiveEventSchema))),
  rewarded: from(Amounts.schema.nullable().openapi({ description: 'What the event earned; null when it earned nothing (see reason)' }), (r: EventResultMessage) =>
    amounts(r.event?.rewarded),
  ),
  reason: from(RewardRefusals.schema.nullable(), (r: EventResultMessage) => (r.event ? RewardRefusals.name(r.event.reason) : null)),
  balance: from(BalanceSummary.schema.openapi({ description: 'The balance right after this event and the rewards it triggered' }), (r: EventResultMessage) => ({
    coins: r.balance?.coins ?? 0,
    xp: r.balance?.xp ?? 0,
    tokens: r.balance?.tokens ?? 0,
    level: r.balance?.level ?? 0,
  })),
  levelUp: from(z.object({ from: z.number().int(), to: z.number().int() }).nullable(), (r: EventResultMessage) =>
    r.levelUp ? { from: r.levelUp.fromLevel, to: r.levelUp.toLevel } : null,
  ),
  badgesAwarded: BadgeRef.list(),
  milestonesReached: MilestoneRef.list(),
  duplicate: z.boolean().openapi({ description: 'True when the idempotencyKey had been seen: this is the first result again' }),
  streaksExtended: StreakExtension.list(),
  boost: BoostRef.field(),
  pendingUntil: time(
    timestamp.nullable().openapi({ description: 'Its coins and tokens are pending until then (the action\u2019s pendingDays), unless the event is reversed first; null: available at once' }),
  ),
});

/** GET /incentives/events items. */
export const IncentiveEvent = entity<IncentiveEventMessage>()('IncentiveEvent', {
  id: z.string(),
  userId: z.string(),
  actionKey: z.string(),
  idempotencyKey: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  source: EventSources.field(),
  rewarded: from(Amounts.schema.nullable(), (e: IncentiveEventMessage) => amounts(e.rewarded)),
  reason: RewardRefusals.field((s) => s.nullable()),
  duplicates: z
    .number()
    .int()
    .openapi({ description: 'How many repeats of its idempotencyKey (or of its request’s Idempotency-Key) were answered from it, as duplicates' }),
  createdAt: time(timestamp),
});

export const actionJson = Action.json;
export const eventResultJson = EventResult.json;
export const eventJson = IncentiveEvent.json;
