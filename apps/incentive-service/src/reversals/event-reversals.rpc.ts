import type { ServiceImpl } from '@connectrpc/connect';
import type { IncentiveService } from '@ris/contracts';
import { tenantOf } from '@ris/rpc';
import type { BalanceMovements } from '../ledger/balance-movements';
import { balanceMessage, ledgerEntryMessage } from '../ledger/ledger.rpc';
import type { EventReversals } from './event-reversals';

/** POST /incentives/events/{eventId}/reverse at the edge. */
export function eventReversalCalls(reversals: EventReversals, movements: BalanceMovements): Pick<ServiceImpl<typeof IncentiveService>, 'reverseEvent'> {
  return {
    async reverseEvent(req, ctx) {
      const appId = tenantOf(ctx);
      const result = await reversals.reverse(appId, req.eventId, req.reason ?? null);
      return {
        transaction: ledgerEntryMessage(result.entry),
        balance: balanceMessage(await movements.view(appId, result.entry.userId)),
        replayed: result.replayed,
      };
    },
  };
}
