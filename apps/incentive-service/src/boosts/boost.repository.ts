import type { Connection, FilterQuery } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import type { BoostStateName } from './boost-choice';
import { boostModel, type BoostDoc } from './boost.model';

/** The stored fields of the boosts in `state` at `now`: boostState() (boost-choice.ts) written as a query. */
function stateFilter(state: BoostStateName, now: Date): FilterQuery<BoostDoc> {
  switch (state) {
    case 'SCHEDULED':
      return { startsAt: { $gt: now } };
    case 'ACTIVE':
      return { startsAt: { $lte: now }, endsAt: { $gt: now } };
    case 'ENDED':
      return { endsAt: { $lte: now } };
  }
}

/** An app's boosts: every question asked of them, by name (boost.model.ts names the index of each). */
export class BoostRepository extends Repository<BoostDoc> {
  constructor(db: Connection) {
    super(boostModel(db));
  }

  /** A new boost under its id (derived from the request's operation key), or the one a first try of the request stored (`created` says which). */
  create(appId: string, boost: Omit<BoostDoc, 'appId'>): Promise<{ doc: BoostDoc; created: boolean }> {
    return this.insertOrGet(appId, boost);
  }

  byId(appId: string, id: string): Promise<BoostDoc | null> {
    return this.collection.findById(appId, id);
  }

  /** GET /incentives/boosts: latest start first, of one state at `now` or all. */
  page(appId: string, page: PageQuery, state: BoostStateName | undefined, now: Date): Promise<Page<BoostDoc>> {
    return this.collection.page(appId, state ? stateFilter(state, now) : {}, { startsAt: -1, _id: -1 }, page);
  }

  /** The boosts whose end is after `at` (the event path's candidates: it checks each window itself). */
  notEnded(appId: string, at: Date): Promise<BoostDoc[]> {
    return this.collection.find(appId, { endsAt: { $gt: at } });
  }

  /** How many boosts of the app have not ended at `now` (the cap at create). */
  openCount(appId: string, now: Date): Promise<number> {
    return this.collection.count(appId, { endsAt: { $gt: now } });
  }

  /**
   * Deletes the boost if it has not started at `now`, in one statement (a
   * delete racing its start cannot take a boost events already earned
   * under). False when nothing was deleted: missing, or started.
   */
  async remove(appId: string, id: string, now: Date): Promise<boolean> {
    return (await this.collection.deleteOne(appId, { _id: id, startsAt: { $gt: now } })) === 1;
  }
}
