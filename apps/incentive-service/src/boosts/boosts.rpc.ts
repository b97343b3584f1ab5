import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { now } from '@ris/config';
import { BoostRefSchema, BoostSchema, BoostState, enumName, enumValue, type Boost, type BoostRef, type IncentiveService } from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, tenantOf } from '@ris/rpc';
import { boostState, type BoostStateName } from './boost-choice';
import type { BoostDoc } from './boost.model';
import type { Boosts } from './boosts';

/** A boost as the contract says it, with its state at `now` (derived at each read, never stored). */
export function boostMessage(doc: BoostDoc, at: Date): Boost {
  return create(BoostSchema, {
    id: doc._id,
    name: doc.name,
    multiplier: doc.multiplier,
    actionKeys: doc.actionKeys,
    userIds: doc.userIds,
    startsAt: timestampFromDate(doc.startsAt),
    endsAt: timestampFromDate(doc.endsAt),
    createdAt: timestampFromDate(doc.createdAt),
    state: enumValue(BoostState, boostState(doc, at)),
  });
}

/** The boost an event was rewarded under, as its result and its ledger entry name it. */
export function boostRef(doc: Pick<BoostDoc, '_id' | 'name' | 'multiplier'>): BoostRef {
  return create(BoostRefSchema, { id: doc._id, name: doc.name, multiplier: doc.multiplier });
}

/** A list's state filter: unset is every state; a value the contract does not have is refused rather than read as unset. */
function stateFilter(value: BoostState): BoostStateName | undefined {
  if (value === BoostState.UNSPECIFIED) return undefined;
  const name = enumName(BoostState, value) as BoostStateName | undefined;
  if (!name) throw invalidArgument(`state ${value} is not a boost state`);
  return name;
}

type BoostCalls = Pick<ServiceImpl<typeof IncentiveService>, 'createBoost' | 'listBoosts' | 'getBoost' | 'deleteBoost'>;

/** Boosts at the edge. */
export function boostCalls(boosts: Boosts): BoostCalls {
  return {
    async createBoost(req, ctx) {
      if (!req.startsAt) throw invalidArgument('startsAt is required');
      if (!req.endsAt) throw invalidArgument('endsAt is required');
      const boost = await boosts.create(
        tenantOf(ctx),
        {
          name: req.name,
          multiplier: req.multiplier,
          actionKeys: req.actionKeys,
          userIds: req.userIds,
          startsAt: timestampDate(req.startsAt),
          endsAt: timestampDate(req.endsAt),
        },
        req.operationKey,
      );
      return { boost: boostMessage(boost, now()) };
    },
    async listBoosts(req, ctx) {
      // One time for the filter and the states shown, so a page of ACTIVE boosts shows them ACTIVE.
      const at = now();
      const page = await boosts.list(tenantOf(ctx), pageFromRequest(req.page), stateFilter(req.state), at);
      return { boosts: page.items.map((doc) => boostMessage(doc, at)), page: pageReply(page) };
    },
    async getBoost(req, ctx) {
      return { boost: boostMessage(await boosts.get(tenantOf(ctx), req.id), now()) };
    },
    async deleteBoost(req, ctx) {
      await boosts.delete(tenantOf(ctx), req.id);
      return {};
    },
  };
}
