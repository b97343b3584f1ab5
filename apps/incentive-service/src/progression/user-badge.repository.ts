import type { Connection } from 'mongoose';
import type { Outbox, OutboxCarrier } from '@ris/events';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { userBadgeModel, type UserBadgeDoc } from './user-badge.model';

/** The badges users hold (user-badge.model.ts): each at most once per user, never written again. */
export class UserBadgeRepository extends Repository<UserBadgeDoc> {
  constructor(db: Connection) {
    super(userBadgeModel(db));
  }

  /** incentive.badge_awarded, stored with the award (awards are never written again). */
  carrier(outbox: Outbox): OutboxCarrier {
    return outbox.carrier(this.collection.model);
  }

  /** The award under its id (derived from the app, user and badge), or the one there already (`created` says which). */
  award(appId: string, award: Omit<UserBadgeDoc, 'appId'>): Promise<{ doc: UserBadgeDoc; created: boolean }> {
    return this.insertOrGet(appId, award);
  }

  /** GET /incentives/badges/{key}/holders: a badge's awards, newest first. */
  ofBadge(appId: string, badgeKey: string, page: PageQuery): Promise<Page<UserBadgeDoc>> {
    return this.collection.page(appId, { badgeKey }, { awardedAt: -1, userId: 1 }, page);
  }

  /** GET /incentives/badges/user/{userId}: a user's badges, newest first. */
  ofUser(appId: string, userId: string, page: PageQuery): Promise<Page<UserBadgeDoc>> {
    return this.collection.page(appId, { userId }, { awardedAt: -1, badgeKey: 1 }, page);
  }
}
