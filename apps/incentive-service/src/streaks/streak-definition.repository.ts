import type { Connection } from 'mongoose';
import type { Page, PageQuery } from '@ris/mongo';
import { DefinitionRepository } from '../definitions/definition.repository';
import { streakDefinitionId } from '../events/derived-ids';
import { streakDefinitionModel, type StreakDefinitionDoc } from './streak-definition.model';

/** An app's streak definitions (streak-definition.model.ts names the index of each query). */
export class StreakDefinitionRepository extends DefinitionRepository<StreakDefinitionDoc> {
  constructor(db: Connection) {
    super(streakDefinitionModel(db), streakDefinitionId);
  }

  /** GET /incentives/streaks/definitions: in key order. */
  page(appId: string, page: PageQuery): Promise<Page<StreakDefinitionDoc>> {
    return this.collection.page(appId, {}, { key: 1 }, page);
  }

  /** Every definition of the app, in key order (the event path, cached). */
  all(appId: string): Promise<StreakDefinitionDoc[]> {
    return this.collection.find(appId, {}, { sort: { key: 1 } });
  }
}
