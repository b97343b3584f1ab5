import { BalanceSort } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { Balance, Transaction, balanceJson, transactionJson } from '../mappers/incentive-balance.mapper';
import { Pagination, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { userId } from '../openapi/incentive-schemas';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const SORTS = { xp: BalanceSort.XP, coins: BalanceSort.COINS, tokens: BalanceSort.TOKENS } as const;
const userParams = z.object({ userId: userId() });

export function incentiveBalanceRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/incentives/balances',
    tag: 'Incentive balances',
    summary: 'List balances, highest first',
    query: z.object({ ...pageQuery, sort: z.enum(['xp', 'coins', 'tokens']).default('xp') }),
    responses: { 200: { description: 'A page of balances', schema: z.object({ balances: z.array(Balance.schema), pagination: Pagination }) } },
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
    responses: { 200: { description: 'The balance', schema: z.object({ balance: Balance.schema }) } },
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
}
