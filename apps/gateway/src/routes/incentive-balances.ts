import { BalanceSort } from '@ris/contracts';
import { jsonColumns } from '../exports/csv-export';
import { EXPORT_CALL, batchesOf, exportRoute } from '../exports/export-route';
import type { ApiRouter } from '../http/api-router';
import { Balance, Transaction, balanceJson, transactionJson } from '../mappers/incentive-balance.mapper';
import { Pagination, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { signedAmount, userId } from '../openapi/incentive-schemas';
import { integerText } from '../openapi/query-values';
import { requiredText } from '../openapi/text-fields';
import { balanceLinks } from '../openapi/links';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const SORTS = { xp: BalanceSort.XP, coins: BalanceSort.COINS, tokens: BalanceSort.TOKENS } as const;
const userParams = z.object({ userId: userId() });

const ADJUSTED = ['coins', 'tokens', 'xp'] as const;

const AdjustmentBody = z
  .object({
    coins: signedAmount('Coins to add (positive) or take (negative); 0 when absent').optional(),
    tokens: signedAmount('Tokens to add or take; 0 when absent').optional(),
    xp: signedAmount('XP to add or take; 0 when absent. It moves the leaderboards and grants the levels it reaches, as a recorded score does').optional(),
    note: requiredText(500).openapi({ description: "Why: the entry's description in the ledger, and in the audit log", example: 'Goodwill for the outage of 3 May' }),
  })
  .refine((b) => ADJUSTED.some((field) => (b[field] ?? 0) !== 0), 'coins, tokens or xp must be other than zero')
  .openapi('IncentiveAdjustment', {
    // The refinement in JSON Schema: one of the three is present and not 0.
    anyOf: ADJUSTED.map((field) => ({ required: [field], properties: { [field]: { not: { const: 0 } } } })),
  });

export function incentiveBalanceRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/incentives/balances',
    tag: 'Incentive balances',
    summary: 'List balances, highest first',
    description: "With `level`, only the users at that level of the app's ladder (0: below the first level; a number that is not a level: none).",
    query: z.object({
      ...pageQuery,
      sort: z.enum(['xp', 'coins', 'tokens']).default('xp'),
      level: integerText('level', 0, 10_000).optional().openapi({ type: 'integer', minimum: 0, maximum: 10_000, description: 'Only the users at this level' }),
    }),
    responses: { 200: { description: 'A page of balances', schema: z.object({ balances: z.array(Balance.schema), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.incentive.listBalances({ appId, page: pageRequest(query), sort: SORTS[query.sort], level: query.level });
      return {
        status: 200,
        body: { balances: res.balances.map(balanceJson), pagination: pagination(query, res.page) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/balances/:userId',
    tag: 'Incentive balances',
    summary: "A user's coins, tokens, XP, level and progress to the next level",
    description: 'A user with no activity has zero balances (200, not 404).',
    params: userParams,
    responses: { 200: { description: 'The balance', schema: z.object({ balance: Balance.schema }) } },
    handle: async ({ appId, params }) => {
      const { balance } = await clients.incentive.getBalance({ appId, userId: params.userId });
      return { status: 200, body: { balance: balanceJson(balance!) } };
    },
  });

  api.route({
    method: 'post',
    path: '/incentives/balances/:userId/adjustments',
    tag: 'Incentive balances',
    summary: "Adjust a user's coins, tokens or XP by hand",
    description:
      'A manual credit or debit (signed amounts, at least one other than zero) with its reason, written to the ledger as one entry ' +
      '(reason and cause ADJUSTMENT, description = note) like any other movement, all or nothing. One that would leave coins, tokens or ' +
      'XP below zero is 422 INSUFFICIENT_BALANCE and changes nothing. XP moves the leaderboards and grants the levels it reaches (a ' +
      "level's rewards follow as their own entries; XP taken back does not take a level back). Send an Idempotency-Key: a retry " +
      'with it is the same adjustment, applied once. Through a dashboard session it is recorded in the audit log.',
    params: userParams,
    body: AdjustmentBody,
    role: 'MANAGER',
    responses: {
      201: {
        description: 'The ledger entry, and the balance after it (and the levels it reached)',
        schema: z.object({ transaction: Transaction.schema, balance: Balance.schema }),
        links: balanceLinks('$response.body#/balance/userId'),
      },
    },
    errors: [422],
    handle: async ({ appId, params, body, operationKey }) => {
      const res = await clients.incentive.adjustBalance({
        appId,
        userId: params.userId,
        coins: body.coins ?? 0,
        tokens: body.tokens ?? 0,
        xp: body.xp ?? 0,
        note: body.note,
        operationKey,
      });
      return {
        status: 201,
        body: { transaction: transactionJson(res.entry!), balance: balanceJson(res.balance!) },
        // The user whose balance moved: the path ends in a word, and the answer's first object is the entry.
        audit: { target: { type: 'balance', id: params.userId } },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/balances/:userId/transactions',
    tag: 'Incentive balances',
    summary: "A user's ledger, newest first",
    description: 'Every movement of the balance. The sum of all entries equals the balance.',
    params: userParams,
    query: z.object(pageQuery),
    responses: {
      200: { description: 'A page of ledger entries', schema: z.object({ transactions: z.array(Transaction.schema), pagination: Pagination }) },
    },
    handle: async ({ appId, params, query }) => {
      const res = await clients.incentive.listTransactions({ appId, userId: params.userId, page: pageRequest(query) });
      return {
        status: 200,
        body: { transactions: res.transactions.map(transactionJson), pagination: pagination(query, res.page) },
      };
    },
  });

  exportRoute(api, {
    path: '/incentives/balances/:userId/transactions/export',
    tag: 'Incentive balances',
    what: 'transactions',
    description: "The user's ledger as GET /incentives/balances/{userId}/transactions lists it, newest first (every page).",
    params: userParams,
    query: z.object({}),
    columns: jsonColumns(Transaction.schema),
    rows: ({ appId, params }) =>
      batchesOf(clients.incentive.exportTransactions({ appId, userId: params.userId }, EXPORT_CALL), (m) => m.transactions.map(transactionJson)),
  });
}
