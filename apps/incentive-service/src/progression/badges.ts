import { characterCount } from '@ris/contracts';
import { invalid, notFound, refused } from '@ris/domain-errors';
import type { Outbox, OutboxCarrier } from '@ris/events';
import type { Page, PageQuery } from '@ris/mongo';
import type { BadgeDoc } from './badge.model';
import type { BadgeRepository } from './badge.repository';
import { createDefinition } from '../definitions/definition-create';
import { checkKey, checkName } from '../definitions/definition-key';
import { badgeId, userBadgeId } from '../events/derived-ids';
import { badgeAwarded } from '../events/incentive-domain-events';
import type { BadgeSourceName, UserBadgeDoc } from './user-badge.model';
import type { UserBadgeRepository } from './user-badge.repository';

export interface BadgeInput {
  key: string;
  name: string;
  description: string | null;
  imageUrl: string | null;
}

export type BadgePatch = Partial<Omit<BadgeInput, 'key'>>;

function checkBadge(b: Omit<BadgeInput, 'key'>): void {
  checkName(b.name);
  if (b.description !== null && characterCount(b.description) > 1000) throw invalid('description must be at most 1000 characters');
  if (b.imageUrl !== null) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(b.imageUrl).protocol) && b.imageUrl.length <= 2000;
    } catch {
      ok = false;
    }
    if (!ok) throw invalid('imageUrl must be an http(s) URL of at most 2000 characters');
  }
}

/** Badge definitions and the badges users hold (each at most once). */
export class Badges {
  /** incentive.badge_awarded, stored with the award. */
  private readonly awardEvents: OutboxCarrier;

  constructor(
    private readonly badges: BadgeRepository,
    private readonly awards: UserBadgeRepository,
    outbox: Outbox,
  ) {
    this.awardEvents = awards.carrier(outbox);
  }

  async create(appId: string, input: BadgeInput, operationKey = ''): Promise<BadgeDoc> {
    checkKey(input.key);
    checkBadge(input);
    const now = new Date();
    const doc = { ...input, _id: badgeId(appId, input.key), name: input.name.trim(), createdAt: now, updatedAt: now };
    return (await createDefinition(this.badges, appId, doc, 'A badge', input.key, operationKey)).doc;
  }

  find(appId: string, key: string): Promise<BadgeDoc | null> {
    return this.badges.byKey(appId, key);
  }

  async get(appId: string, key: string): Promise<BadgeDoc> {
    const badge = await this.find(appId, key);
    if (!badge) throw notFound('Badge', { key });
    return badge;
  }

  /** Level and milestone rewards may only name badges that exist. */
  async checkExists(appId: string, key: string | null, field: string): Promise<void> {
    if (key === null) return;
    // 422, not 400: the request is well formed; what it refers to does not exist (yet).
    if (!(await this.find(appId, key))) {
      throw refused('BADGE_NOT_FOUND', `${field}: there is no badge with key ${key}`, { field, badgeKey: key });
    }
  }

  list(appId: string, page: PageQuery): Promise<Page<BadgeDoc>> {
    return this.badges.page(appId, page);
  }

  async update(appId: string, key: string, patch: BadgePatch): Promise<BadgeDoc> {
    const current = await this.get(appId, key);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as BadgePatch;
    const next = { ...current, ...defined };
    if (defined.name !== undefined) next.name = defined.name.trim();
    checkBadge(next);
    const updated = await this.badges.replace(appId, next);
    if (!updated) throw notFound('Badge', { key });
    return updated;
  }

  /**
   * Gives a user a badge unless they hold it already (the unique index
   * decides between concurrent awards). incentive.badge_awarded is stored
   * with the award (one insert) and published right after it.
   */
  async award(
    appId: string,
    badge: BadgeDoc,
    userId: string,
    source: BadgeSourceName,
    sourceId: string | null,
    operationKey = '',
  ): Promise<{ award: UserBadgeDoc; awarded: boolean }> {
    const doc: UserBadgeDoc = {
      _id: userBadgeId(appId, userId, badge.key),
      appId,
      userId,
      badgeKey: badge.key,
      source,
      sourceId,
      awardedAt: new Date(),
      awardedByOperation: operationKey || null,
    };
    const carried = this.awardEvents.carry([badgeAwarded(doc)]);
    const { doc: award, created } = await this.awards.award(appId, { ...doc, ...carried.fields });
    if (created) {
      carried.written(award);
      return { award, awarded: true };
    }
    // Awarded before (its event was stored with it): a retry of the request that awarded it is answered as that award.
    return { award, awarded: Boolean(operationKey) && award.awardedByOperation === operationKey };
  }

  /** A user's badges, newest first, with their definitions. */
  /** Who holds a badge, newest award first (404 for a badge the app does not have). */
  async holders(appId: string, key: string, page: PageQuery): Promise<{ badge: BadgeDoc; awards: Page<UserBadgeDoc> }> {
    const badge = await this.get(appId, key);
    return { badge, awards: await this.awards.ofBadge(appId, key, page) };
  }

  async listForUser(appId: string, userId: string, page: PageQuery): Promise<Page<{ award: UserBadgeDoc; badge: BadgeDoc | null }>> {
    const awards = await this.awards.ofUser(appId, userId, page);
    const badges = await this.badges.withKeys(appId, [...new Set(awards.items.map((a) => a.badgeKey))]);
    const byKey = new Map(badges.map((b) => [b.key, b]));
    return { ...awards, items: awards.items.map((award) => ({ award, badge: byKey.get(award.badgeKey) ?? null })) };
  }
}
