import { create } from '@bufbuild/protobuf';
import { BalanceSnapshotSchema, type BalanceSnapshot as BalanceProto } from '@ris/contracts';
import type { BalanceSnapshot } from './balance-account';

/** The user's balance after a redemption, in the answers of both halves of the service (unset when it could not be read). */
export function balanceToProto(balance: BalanceSnapshot | null): BalanceProto | undefined {
  return balance ? create(BalanceSnapshotSchema, balance) : undefined;
}
