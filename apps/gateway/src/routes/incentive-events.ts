import type { JsonObject } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { EventResult as EventResultMessage } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { errorBody } from '../http/error-response';
import { EventResult, IncentiveEvent, eventJson, eventResultJson } from '../mappers/incentive-action.mapper';
import { ErrorResponse, Pagination, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { definitionKey, isoQuery, timeZone, userId } from '../openapi/incentive-schemas';
import { jsonObject } from '../openapi/json-object';
import { identifier } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const MAX_BULK = 1000;
// A bulk of 1000 events can take a while; a single event answers fast.
const BULK_TIMEOUT_MS = 60_000;

const EventBody = z
  .object({
    userId: userId('The user who completed the action'),
    actionKey: definitionKey('Key of a STANDARD action'),
    idempotencyKey: identifier('Per app and user: a repeat returns the first result (200, duplicate: true) and changes nothing', 255).optional(),
    metadata: jsonObject('Kept with the event').optional(),
    timeZone: timeZone("The zone this event's streak periods are read in; absent: the user's (PUT /incentives/users/{userId}/settings), else UTC").optional(),
  })
  .openapi('IncentiveEventRequest');

const userLinks = {
  GetBalance: { method: 'get', path: '/incentives/balances/:userId', parameters: { userId: '$response.body#/event/userId' } },
  ListTransactions: { method: 'get', path: '/incentives/balances/:userId/transactions', parameters: { userId: '$response.body#/event/userId' } },
  GetLeaderboardEntry: { method: 'get', path: '/incentives/leaderboard/:userId', parameters: { userId: '$response.body#/event/userId' } },
} as const;

/**
 * `operationKey`: the request's (see HandlerInput), for an event without an
 * idempotencyKey of its own, so a retried request is the same event.
 */
const toInput = (e: z.output<typeof EventBody>, operationKey: string) => ({
  userId: e.userId,
  actionKey: e.actionKey,
  idempotencyKey: e.idempotencyKey,
  operationKey: e.idempotencyKey ? '' : operationKey,
  metadata: e.metadata as JsonObject | undefined,
  timeZone: e.timeZone,
});

/**
 * An event keyed only by its request's Idempotency-Key that comes back as a
 * duplicate is this request's own first try (a retry after an unknown
 * outcome): it is answered as that try would have been, not as a repeat.
 */
const asFirstTry = (e: z.output<typeof EventBody>, result: EventResultMessage): EventResultMessage =>
  result.duplicate && !e.idempotencyKey ? { ...result, duplicate: false } : result;

export function incentiveEventRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/incentives/events',
    tag: 'Incentive events',
    summary: 'Record that a user completed an action',
    description:
      'Earns the action\'s coins, XP and tokens unless a rule says otherwise: inside the cooldown (COOLDOWN), past maxRepeats ' +
      '(MAX_REPEATS) or disabled (ACTION_DISABLED) the event is recorded and earns nothing. A user\'s XP stops at 2^53 − 1: ' +
      'past it, `rewarded.xp` is what still fitted. May level the user up and award ' +
      'badges and milestones. Only STANDARD actions are posted; the REFERRAL_* types fire from referral activity (422 ACTION_NOT_POSTABLE otherwise). ' +
      'Without an idempotencyKey, the request\'s `Idempotency-Key` identifies the event: a retry after a 503 or a timeout is the ' +
      'same event, answered as its first try (201) and applied once.',
    body: EventBody,
    responses: {
      201: { description: 'Recorded', schema: EventResult.schema, links: userLinks },
      200: { description: 'The idempotencyKey was seen before: the first result, with duplicate: true', schema: EventResult.schema, links: userLinks },
    },
    errors: [404, 422],
    handle: async ({ appId, body, operationKey }) => {
      const { result } = await clients.incentive.recordEvent({ appId, event: toInput(body, operationKey) });
      const answer = asFirstTry(body, result!);
      return { status: answer.duplicate ? 200 : 201, body: eventResultJson(answer) };
    },
  });

  api.route({
    method: 'post',
    path: '/incentives/events/bulk',
    tag: 'Incentive events',
    summary: 'Record up to 1000 events at once',
    description:
      'Each event is processed like POST /incentives/events, in input order for each user. `results` has one entry per event, ' +
      'in input order: the event result, or `{error}` for an event that failed (the others are unaffected).',
    body: z
      .object({
        events: z
          .array(z.unknown())
          .min(1, 'send at least one event')
          .max(MAX_BULK, `at most ${MAX_BULK} events per call`)
          .openapi({
            // Any value is taken: each is validated on its own, and one that is not an
            // IncentiveEventRequest gets its own VALIDATION_ERROR result, not a 400 for the call.
            items: {
              anyOf: [{ $ref: '#/components/schemas/IncentiveEventRequest' }, {}],
              description: 'An IncentiveEventRequest; anything else is answered in its place in `results` with a VALIDATION_ERROR',
            },
          }),
      })
      .openapi('BulkIncentiveEventsRequest'),
    responses: {
      200: {
        description: 'One result per event, in input order',
        schema: z
          .object({ results: z.array(z.union([EventResult.schema, ErrorResponse])) })
          .openapi('BulkIncentiveEventsResponse'),
      },
    },
    handle: async ({ appId, req, body, operationKey }) => {
      const requestId = req.res?.locals.requestId as string;
      const results: unknown[] = new Array(body.events.length);
      const valid: Array<{ index: number; event: z.output<typeof EventBody> }> = [];
      body.events.forEach((raw, index) => {
        const parsed = EventBody.safeParse(raw);
        if (parsed.success) valid.push({ index, event: parsed.data });
        else {
          const message = parsed.error.issues.map((i) => `events[${index}]${i.path.map((p) => `.${String(p)}`).join('')}: ${i.message}`).join('; ');
          results[index] = errorBody(requestId, 'VALIDATION_ERROR', message);
        }
      });
      if (valid.length > 0) {
        const { outcomes } = await clients.incentive.recordEvents(
          // Each event's own operation key: the request's and its place in the request.
          { appId, events: valid.map((v) => toInput(v.event, operationKey && `${operationKey}.${v.index}`)) },
          { timeoutMs: BULK_TIMEOUT_MS },
        );
        outcomes.forEach((outcome, i) => {
          const { index } = valid[i];
          results[index] =
            outcome.outcome.case === 'result'
              ? eventResultJson(asFirstTry(valid[i].event, outcome.outcome.value))
              : errorBody(requestId, outcome.outcome.value?.code ?? 'INTERNAL', outcome.outcome.value?.message ?? 'Internal error');
        });
      }
      return { status: 200, body: { results } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/events',
    tag: 'Incentive events',
    summary: 'List recorded events, newest first',
    description: '`from` and `to` bound the time of recording, both included; a `from` after `to` is an empty range (an empty page).',
    query: z.object({
      ...pageQuery,
      userId: userId('Only this user').optional(),
      actionKey: definitionKey('Only this action').optional(),
      from: isoQuery('Recorded at or after'),
      to: isoQuery('Recorded at or before'),
    }),
    responses: { 200: { description: 'A page of events', schema: z.object({ events: z.array(IncentiveEvent.schema), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      // An empty range, not an error: the two bounds are each valid, and no
      // event lies between them.
      if (query.from && query.to && query.from > query.to) {
        return { status: 200, body: { events: [], pagination: pagination(query, { totalItems: 0 }) } };
      }
      const res = await clients.incentive.listEvents({
        appId,
        page: pageRequest(query),
        userId: query.userId,
        actionKey: query.actionKey,
        from: query.from ? timestampFromDate(query.from) : undefined,
        to: query.to ? timestampFromDate(query.to) : undefined,
      });
      return {
        status: 200,
        body: { events: res.events.map(eventJson), pagination: pagination(query, res.page) },
      };
    },
  });
}
