import { now } from '@ris/config';
import { invalid, notFound, refused } from '@ris/domain-errors';
import { idFromOperation, type Page, type PageQuery } from '@ris/mongo';
import { checkKey, checkName, checkUserId } from '../definitions/definition-key';
import { ShortLivedCache } from '../definitions/short-lived-cache';
import { applicableBoost, multiplierHundredths, type BoostStateName } from './boost-choice';
import type { BoostDoc } from './boost.model';
import type { BoostRepository } from './boost.repository';

export interface BoostInput {
  name: string;
  multiplier: number;
  actionKeys: readonly string[];
  userIds: readonly string[];
  startsAt: Date;
  endsAt: Date;
}

export const MIN_MULTIPLIER = 1;
export const MAX_MULTIPLIER = 10;
export const MAX_BOOST_ACTIONS = 100;
export const MAX_BOOST_USERS = 1000;
export const MAX_BOOST_DAYS = 366;
/**
 * Boosts of an app not yet ended (scheduled or active): every event reads
 * them all (cached), so their number is what an event pays for.
 */
export const MAX_OPEN_BOOSTS = 100;

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: past it a time has no ISO 8601 form of 4-digit years (the API's answers). */
const LATEST = Date.parse('+010000-01-01T00:00:00Z');
/** How long this process keeps an app's open boosts (another replica's create or delete shows within it). */
const CACHE_TTL_MS = 1000;
/**
 * The cached list also holds boosts that ended this long before it was
 * read, so an event a little older than now (a batch, a retry) is decided
 * from it too; an older one (a recovered event) reads the store.
 */
const RECENT_MS = 60_000;

const rangeError = (message: string, field: 'startsAt' | 'endsAt') => refused('INVALID_RANGE', message, { field });

/** Each of `values` checked by `check` (which may clean it), none twice. */
function checkList(values: readonly string[], field: string, max: number, check: (value: string, field: string) => string): string[] {
  if (values.length > max) throw invalid(`${field} must hold at most ${max} items`, { field, max });
  const checked = values.map((value, i) => check(value, `${field}[${i}]`));
  const repeated = checked.find((value, i) => checked.indexOf(value) !== i);
  if (repeated !== undefined) throw invalid(`${field} must not hold ${repeated} twice`, { field, value: repeated });
  return checked;
}

function checkMultiplier(multiplier: number): number {
  if (!(multiplier > MIN_MULTIPLIER && multiplier <= MAX_MULTIPLIER) || multiplierHundredths(multiplier) === null) {
    throw invalid(`multiplier must be more than ${MIN_MULTIPLIER} and at most ${MAX_MULTIPLIER}, with at most 2 decimal places`, { field: 'multiplier' });
  }
  return multiplier;
}

/** What the calendar alone says of a window: an end after the start, within the years a time can be written in, at most 366 days long. */
function checkWindow(startsAt: Date, endsAt: Date): void {
  if (Number.isNaN(startsAt.getTime())) throw invalid('startsAt must be a time', { field: 'startsAt' });
  if (Number.isNaN(endsAt.getTime())) throw invalid('endsAt must be a time', { field: 'endsAt' });
  if (endsAt.getTime() <= startsAt.getTime()) throw rangeError('endsAt must be after startsAt', 'endsAt');
  if (endsAt.getTime() >= LATEST) throw rangeError('endsAt must fall within the years 0001 to 9999 (UTC)', 'endsAt');
  if (endsAt.getTime() - startsAt.getTime() > MAX_BOOST_DAYS * DAY_MS) throw rangeError(`a boost lasts at most ${MAX_BOOST_DAYS} days`, 'endsAt');
}

/** An app's boosts not ended at `since`, as cached for the event path. */
interface OpenBoosts {
  since: number;
  boosts: BoostDoc[];
}

/** Time-boxed boosts: defined, listed, deleted before they start, and the one each event earns under. */
export class Boosts {
  private readonly open = new ShortLivedCache<OpenBoosts>(CACHE_TTL_MS);

  constructor(private readonly repository: BoostRepository) {}

  /** With an operation key, a retry of the request answers the boost its first try made. */
  async create(appId: string, input: BoostInput, operationKey = ''): Promise<BoostDoc> {
    const boost = {
      _id: idFromOperation('bst', operationKey),
      name: checkName(input.name),
      multiplier: checkMultiplier(input.multiplier),
      actionKeys: checkList(input.actionKeys, 'actionKeys', MAX_BOOST_ACTIONS, checkKey),
      userIds: checkList(input.userIds, 'userIds', MAX_BOOST_USERS, checkUserId),
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      createdByOperation: operationKey || null,
    };
    checkWindow(boost.startsAt, boost.endsAt);
    // A retry is answered before the checks that depend on the clock or on other boosts: its first try passed them.
    const first = operationKey ? await this.repository.byId(appId, boost._id) : null;
    if (first) return first;
    const at = now();
    if (boost.endsAt.getTime() <= at.getTime()) throw rangeError('endsAt must be in the future', 'endsAt');
    // Racing creates may pass the cap together: it bounds the event path's cost, a few over do not matter.
    if ((await this.repository.openCount(appId, at)) >= MAX_OPEN_BOOSTS) {
      throw refused('TOO_MANY_BOOSTS', `An app has at most ${MAX_OPEN_BOOSTS} boosts that have not ended.`, { max: MAX_OPEN_BOOSTS });
    }
    const { doc, created } = await this.repository.create(appId, { ...boost, createdAt: at });
    if (created) this.open.invalidate(appId);
    return doc;
  }

  async get(appId: string, id: string): Promise<BoostDoc> {
    const doc = await this.repository.byId(appId, id);
    if (!doc) throw notFound('Boost', { boostId: id });
    return doc;
  }

  /** Latest start first; of one state at `at`, or all. */
  list(appId: string, page: PageQuery, state?: BoostStateName, at = now()): Promise<Page<BoostDoc>> {
    return this.repository.page(appId, page, state, at);
  }

  /** Only before it starts: events may have earned under it since (BOOST_STARTED). */
  async delete(appId: string, id: string): Promise<void> {
    if (await this.repository.remove(appId, id, now())) {
      this.open.invalidate(appId);
      return;
    }
    const doc = await this.get(appId, id);
    throw refused('BOOST_STARTED', `The boost started at ${doc.startsAt.toISOString()}: only a boost that has not started can be deleted.`, {
      boostId: id,
      startsAt: doc.startsAt.toISOString(),
    });
  }

  /**
   * The boost an event of `actionKey` by `userId` at `at` earns under, or
   * null. Read on every event: the app's open boosts come from a cache (an
   * app without boosts costs one lookup of it); an event older than the
   * cached list covers (a recovered one) reads the store.
   */
  async forEvent(appId: string, actionKey: string, userId: string, at: Date): Promise<BoostDoc | null> {
    const event = { actionKey, userId, at };
    const open = await this.open.get(appId, () => this.loadOpen(appId));
    if (at.getTime() >= open.since) return open.boosts.length === 0 ? null : applicableBoost(open.boosts, event);
    return applicableBoost(await this.repository.notEnded(appId, at), event);
  }

  private async loadOpen(appId: string): Promise<OpenBoosts> {
    const since = now().getTime() - RECENT_MS;
    return { since, boosts: await this.repository.notEnded(appId, new Date(since)) };
  }
}
