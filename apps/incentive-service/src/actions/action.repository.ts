import type { Connection } from 'mongoose';
import type { Page, PageQuery } from '@ris/mongo';
import { DefinitionRepository } from '../definitions/definition.repository';
import { actionId } from '../events/derived-ids';
import type { ActionTypeName } from './action-types';
import { actionModel, type ActionDoc } from './action.model';

export interface ActionListFilter {
  type?: ActionTypeName;
  enabled?: boolean;
}

/** An app's actions: every question asked of them, by name (action.model.ts names the index of each). */
export class ActionRepository extends DefinitionRepository<ActionDoc> {
  constructor(db: Connection) {
    super(actionModel(db), actionId);
  }

  /** GET /incentives/actions: in key order, of one type and/or enabled state, or all. */
  page(appId: string, page: PageQuery, filter: ActionListFilter = {}): Promise<Page<ActionDoc>> {
    const query: Record<string, unknown> = {};
    if (filter.type) query.type = filter.type;
    if (filter.enabled !== undefined) query.enabled = filter.enabled;
    return this.collection.page(appId, query, { key: 1 }, page);
  }

  /** The actions of one type (the referral consumer's), in key order: a handful per app at most. */
  ofType(appId: string, type: ActionTypeName): Promise<ActionDoc[]> {
    return this.collection.find(appId, { type }, { sort: { key: 1 } });
  }

  /** Stores an action's changed fields (all but its id, app, key and creation); null when it is not there. */
  replace(appId: string, action: ActionDoc): Promise<ActionDoc | null> {
    const { _id, appId: _app, key: _key, createdAt: _created, ...changes } = action;
    return this.collection.findOneAndUpdate(appId, { _id }, { $set: { ...changes, updatedAt: new Date() } });
  }
}
