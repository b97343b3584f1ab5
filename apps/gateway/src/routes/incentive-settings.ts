import type { ApiRouter } from '../http/api-router';
import { Balance, Transaction, balanceJson, transactionJson } from '../mappers/incentive-balance.mapper';
import { isoTime } from '../mappers/proto-json';
import { timestamp } from '../openapi/common-schemas';
import { freeText, identifier } from '../openapi/text-fields';
import { balanceLinks } from '../openapi/links';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const expiryDays = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(3650)
    .nullable()
    .openapi({ description: `Days after which credited ${what} expire (1 to 3650): at the end of the UTC day that many days after the day they were earned; null or absent: never` });

const Settings = z
  .object({ coinExpiryDays: z.number().int().nullable(), tokenExpiryDays: z.number().int().nullable(), updatedAt: timestamp.nullable() })
  .openapi('IncentiveSettings');

const settingsJson = (s: { coinExpiryDays?: number; tokenExpiryDays?: number; updatedAt?: Parameters<typeof isoTime>[0] } | undefined) => ({
  coinExpiryDays: s?.coinExpiryDays ?? null,
  tokenExpiryDays: s?.tokenExpiryDays ?? null,
  updatedAt: isoTime(s?.updatedAt),
});

/** The engine's settings (how long credits live) and event reversals. */
export function incentiveSettingsRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/incentives/settings',
    tag: 'Incentive balances',
    summary: "The engine's settings: when credits expire",
    responses: { 200: { description: 'The settings (null: never)', schema: z.object({ settings: Settings }) } },
    handle: async ({ appId }) => {
      const { settings } = await clients.incentive.getIncentiveSettings({ appId });
      return { status: 200, body: { settings: settingsJson(settings) } };
    },
  });

  api.route({
    method: 'put',
    path: '/incentives/settings',
    tag: 'Incentive balances',
    summary: 'Set when credits expire',
    description:
      'Each credit of coins (tokens) from then on is a lot that expires `coinExpiryDays` (`tokenExpiryDays`) days after it was earned, ' +
      'at the end of that UTC day; debits take the soonest-expiring lots first (coins credited while no expiry was set never expire and ' +
      'go last). A pass writes an EXPIRY ledger entry for what lapsed, exactly once, and sends COINS_EXPIRED. Lots keep the expiry they ' +
      'were given: a change applies to credits from then on.',
    body: z.object({ coinExpiryDays: expiryDays('coins').optional(), tokenExpiryDays: expiryDays('tokens').optional() }).openapi('PutIncentiveSettingsRequest'),
    role: 'MANAGER',
    responses: { 200: { description: 'The settings', schema: z.object({ settings: Settings }) } },
    handle: async ({ appId, body }) => {
      const { settings } = await clients.incentive.putIncentiveSettings({
        appId,
        coinExpiryDays: body.coinExpiryDays ?? undefined,
        tokenExpiryDays: body.tokenExpiryDays ?? undefined,
      });
      return { status: 200, body: { settings: settingsJson(settings) }, audit: { target: { type: 'incentive-settings', id: appId } } };
    },
  });

  api.route({
    method: 'post',
    path: '/incentives/events/:eventId/reverse',
    tag: 'Incentive events',
    summary: 'Take an event back',
    description:
      'A pending credit of the event is cancelled; coins and tokens already available are debited, and what the balance no longer holds ' +
      '(spent) becomes a debt (`debtCoins`, `debtTokens`) that the user\\u2019s next credits repay: a balance never goes below zero. ' +
      'Its XP is taken back (as far as the balance holds it) and the level shown follows the XP; levels already granted and what they ' +
      'gave stay, and so do streak and milestone progress. One REVERSAL ledger entry (cause EVENT_REVERSAL), once: a second call answers ' +
      'the first (200). 422 EVENT_NOT_REWARDED for an event that earned nothing. Sends EVENT_REVERSED; through a dashboard session it ' +
      'needs the MANAGER role and is recorded in the audit log.',
    params: z.object({ eventId: identifier('The event (its id from POST /incentives/events)', 100) }),
    body: z.object({ reason: freeText(500).optional() }).openapi('ReverseIncentiveEventRequest'),
    role: 'MANAGER',
    responses: {
      201: {
        description: 'Reversed: the ledger entry and the balance after it',
        schema: z.object({ transaction: Transaction.schema, balance: Balance.schema }),
        links: balanceLinks('$response.body#/balance/userId'),
      },
      200: { description: 'Reversed before: that reversal, and the balance now', schema: z.object({ transaction: Transaction.schema, balance: Balance.schema }) },
    },
    errors: [404, 422],
    handle: async ({ appId, params, body }) => {
      const res = await clients.incentive.reverseEvent({ appId, eventId: params.eventId, reason: body.reason });
      return {
        status: res.replayed ? 200 : 201,
        body: { transaction: transactionJson(res.transaction!), balance: balanceJson(res.balance!) },
        audit: { target: { type: 'incentive-event', id: params.eventId } },
      };
    },
  });
}
