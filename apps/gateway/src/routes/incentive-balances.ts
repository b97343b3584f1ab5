import { BalanceSort } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { balanceJson, transactionJson } from '../mappers/incentive-balance.mapper';
import { Pagination, pageQuery, pageRequest, pagination, timestamp } from '../openapi/common-schemas';
import { userId } from '../openapi/incentive-schemas';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const Balance = z
  .object({
    userId: z.string(),
    coins: z.number(),
    tokens: z.number(),
    xp: z.number(),
    level: z.number().int().openapi({ description: '0 below the first level' }),
    levelName: z.string().nullable(),
    nextLevel: z
      .object({ level: z.number().int(), name: z.string(), xpThreshold: z.number(), xpRemaining: z.number() })
      .nullable()
      .openapi({ description: 'null at the highest level' }),
    progress: z.number().min(0).max(1).openapi({ description: "0..1 from the current level's threshold to the next one's" }),
    perks: z.array(z.string()).openapi({ description: 'Perks of every level reached' }),
    coinsEarned: z.number().openapi({ description: 'Coins earned from rewards (spending does not lower it)' }),
    rewardedEvents: z.number().int(),
    referrals: z.number().int().openapi({ description: 'Referees who converted (rewarded REFERRAL_REFEREE_ACTION events)' }),
    updatedAt: timestamp.nullable(),
  })
  .openapi('IncentiveBalance');

const REASONS = ['ACTION_REWARD', 'LEVEL_REWARD', 'MILESTONE_REWARD', 'DEBIT', 'CREDIT', 'SCORE_SET'] as const;

const Transaction = z
  .object({
    id: z.string(),
    seq: z.number().int().openapi({ description: "Position in the user's ledger: 1, 2, 3, … without gaps" }),
    reason: z.enum(REASONS),
    coins: z.number().openapi({ description: 'Signed change' }),
    xp: z.number(),
    tokens: z.number(),
    balanceAfter: z.object({ coins: z.number(), xp: z.number(), tokens: z.number() }),
    sourceId: z.string().openapi({ description: 'Event id, level number, milestone key or operation id' }),
    actionKey: z.string().nullable(),
    description: z.string().nullable(),
    createdAt: timestamp,
  })
  .openapi('IncentiveTransaction');

const SORTS = { xp: BalanceSort.XP, coins: BalanceSort.COINS, tokens: BalanceSort.TOKENS } as const;
const userParams = z.object({ userId: userId() });

export function incentiveBalanceRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/incentives/balances',
    tag: 'Incentive balances',
    summary: 'List balances, highest first',
    query: z.object({ ...pageQuery, sort: z.enum(['xp', 'coins', 'tokens']).default('xp') }),
    responses: { 200: { description: 'A page of balances', schema: z.object({ balances: z.array(Balance), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.incentive.listBalances({ appId, page: pageRequest(query), sort: SORTS[query.sort] });
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
    responses: { 200: { description: 'The balance', schema: z.object({ balance: Balance }) } },
    handle: async ({ appId, params }) => {
      const { balance } = await clients.incentive.getBalance({ appId, userId: params.userId });
      return { status: 200, body: { balance: balanceJson(balance!) } };
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
      200: { description: 'A page of ledger entries', schema: z.object({ transactions: z.array(Transaction), pagination: Pagination }) },
    },
    handle: async ({ appId, params, query }) => {
      const res = await clients.incentive.listTransactions({ appId, userId: params.userId, page: pageRequest(query) });
      return {
        status: 200,
        body: { transactions: res.transactions.map(transactionJson), pagination: pagination(query, res.page) },
      };
    },
  });
}
