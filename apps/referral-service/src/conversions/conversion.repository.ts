import type { Connection, FilterQuery } from 'mongoose';
import type { Carried, Outbox, OutboxCarrier } from '@ris/events';
import { Repository, SerialByKey, type Page, type PageQuery } from '@ris/mongo';
import { CONVERTED, COUNTED, NOT_CONVERTED } from './conversion-status';
import { conversionModel, type ConversionDoc, type ConversionStatusName } from './conversion.model';

/** GET /conversions' filters, each with its index (conversion.model.ts). */
export interface ConversionListFilter {
  campaignId?: string;
  /** The code the referee used: a code's whole chain (every level). */
  originalReferralCode?: string;
  status?: ConversionStatusName;
}

/**
 * Which records of a conversion a change the rewards must follow applies
 * to: `flagged` (an approval converts them), `unrejected` (a rejection
 * marks them), `scoreDeferred` (a late fraud score lands on them),
 * `rejectedUnmarked` (rejected before REJECTED was a status of its own).
 */
export type RecordSelection = 'flagged' | 'unrejected' | 'scoreDeferred' | 'rejectedUnmarked';

const SELECTED: Record<RecordSelection, FilterQuery<ConversionDoc>> = {
  flagged: { status: 'FLAGGED' },
  unrejected: { review: { $ne: 'REJECTED' } },
  scoreDeferred: { fraudCheck: 'DEFERRED' },
  rejectedUnmarked: { review: 'REJECTED', status: { $ne: 'REJECTED' } },
};

/** What a recount of the campaign counters reads of a converted level-1 record. */
export type ConversionCountRow = Pick<ConversionDoc, 'appId' | 'campaignId' | 'referralId' | 'convertedAt' | 'createdAt'>;

const NEWEST_FIRST = { lastEventAt: -1, _id: -1 } as const;

const listQuery = (filter: ConversionListFilter): FilterQuery<ConversionDoc> => {
  const query: FilterQuery<ConversionDoc> = {};
  if (filter.campaignId) query.campaignId = filter.campaignId;
  if (filter.originalReferralCode) query.originalReferralCode = filter.originalReferralCode;
  if (filter.status) query.status = filter.status;
  return query;
};

/**
 * The conversion records (conversion.model.ts): a referee's funnel record
 * and conversion at level 1, the upline's records above it. Every question
 * asked of them and every write, by name; the rules of which records count
 * ("converted", "the tree's link") are written here once.
 */
export class ConversionRepository extends Repository<ConversionDoc> {
  /** conversion.created and conversion.flagged, stored with the record's change they announce. */
  readonly events: OutboxCarrier;
  /** Writes to a conversion's records, one at a time per conversion in this process (see serially). */
  private readonly locks = new SerialByKey();

  constructor(db: Connection, outbox: Outbox) {
    super(conversionModel(db));
    this.events = outbox.carrier(this.collection.model, {
      lock: { fields: ['conversionId'], run: (doc, work) => this.serially(doc.appId, doc.conversionId as string, work) },
    });
  }

  /**
   * Runs a write to a converted conversion's records (their rewards issued,
   * a score or review applied, their settling, their events cleared) after
   * the ones already running in this process: FerretDB v1 applies an update
   * as a read and a write of the whole document, so two at once could undo
   * each other. On MongoDB it only orders this process's writes.
   */
  serially<R>(appId: string, conversionId: string, work: () => Promise<R>): Promise<R> {
    return this.locks.run(`${appId}\u0000${conversionId}`, work);
  }

  /** The referee's record at a level in a campaign (level 1: the funnel record, or the conversion). */
  refereeRecord(appId: string, campaignId: string, refereeId: string, level = 1): Promise<ConversionDoc | null> {
    return this.collection.findOne(appId, { campaignId, refereeId, level });
  }

  /**
   * A link of the referral tree: the level-1 record through which `userId`
   * converted in the campaign, CONVERTED or FLAGGED, and not rejected by a
   * review.
   */
  convertedLink(appId: string, campaignId: string, userId: string): Promise<ConversionDoc | null> {
    return this.collection.findOne(appId, { campaignId, refereeId: userId, level: 1, status: { $in: CONVERTED }, review: { $ne: 'REJECTED' } });
  }

  /** A new record; null when the referee has one at its level in the campaign already, or its id is taken (a race: look again). */
  insertRecord(appId: string, record: Omit<ConversionDoc, 'appId'>): Promise<ConversionDoc | null> {
    return this.insertUnlessTaken(appId, record);
  }

  /** An upline record (level 2, 3, …), or the one of the same referee and level a retry or the recovery pass stored first. */
  insertUplineRecord(appId: string, record: Omit<ConversionDoc, 'appId'>): Promise<{ doc: ConversionDoc; created: boolean }> {
    return this.insertOrFind(appId, record, () => this.refereeRecord(appId, record.campaignId, record.refereeId, record.level));
  }

  /**
   * Takes a funnel record (PENDING or CLICKED) by deleting it: of
   * concurrent deletes of one document exactly one removes it, on MongoDB
   * and on FerretDB, whose conditional updates are not atomic.
   */
  async takeFunnelRecord(appId: string, id: string): Promise<boolean> {
    return (await this.collection.deleteOne(appId, { _id: id, status: { $in: NOT_CONVERTED } })) === 1;
  }

  /** Changes the referee's level-1 record while it is not converted (a click; a converted referee stays converted). */
  async moveFunnelRecord(appId: string, campaignId: string, refereeId: string, set: Partial<ConversionDoc>): Promise<void> {
    await this.collection.updateOne(appId, { campaignId, refereeId, level: 1, status: { $in: NOT_CONVERTED } }, { $set: set });
  }

  /** A conversion's records, level 1 first. */
  recordsOf(appId: string, conversionId: string): Promise<ConversionDoc[]> {
    return this.collection.find(appId, { conversionId }, { sort: { level: 1 } });
  }

  /**
   * Marks a record's rewards issued, with the events of that in the same
   * update, once (while rewardsIssuedAt is null) and only at the state
   * version the events were built from. Null when either changed.
   */
  markIssued(appId: string, record: Pick<ConversionDoc, '_id' | 'stateVersion'>, set: Partial<ConversionDoc>, events: Carried): Promise<ConversionDoc | null> {
    return this.collection.findOneAndUpdate(appId, { _id: record._id, rewardsIssuedAt: null, stateVersion: record.stateVersion }, events.update({ $set: set }));
  }

  /** Marks a conversion's records settled at a state version: a change that bumped it meanwhile makes the mark miss. */
  async markSettled(appId: string, conversionId: string, stateVersion: number): Promise<void> {
    await this.collection.updateMany(appId, { conversionId, stateVersion }, { $set: { rewardsSettled: true } });
  }

  /** A change the rewards must follow, on every selected record of a conversion: their version bumped, marked unsettled. How many changed. */
  changeRecords(appId: string, conversionId: string, selection: RecordSelection, set: Partial<ConversionDoc>): Promise<number> {
    return this.collection.updateMany(appId, { conversionId, ...SELECTED[selection] }, stateChange(set));
  }

  /** The selected records of a conversion. */
  selectedRecords(appId: string, conversionId: string, selection: RecordSelection): Promise<ConversionDoc[]> {
    return this.collection.find(appId, { conversionId, ...SELECTED[selection] });
  }

  /** The record, if it is still selected. */
  selectedRecord(appId: string, id: string, selection: RecordSelection): Promise<ConversionDoc | null> {
    return this.collection.findOne(appId, { _id: id, ...SELECTED[selection] });
  }

  /**
   * changeRecords() on one record, with the events of the change, only at
   * the version the events were built from: its state, and whether its
   * rewards (and conversion.created) were issued. Null when it changed.
   */
  changeRecord(appId: string, record: ConversionDoc, selection: RecordSelection, set: Partial<ConversionDoc>, events: Carried): Promise<ConversionDoc | null> {
    return this.collection.findOneAndUpdate(
      appId,
      { _id: record._id, ...SELECTED[selection], stateVersion: record.stateVersion, rewardsIssuedAt: record.rewardsIssuedAt },
      events.update(stateChange(set)),
    );
  }

  /** A cancelled reward out of the record's amount (its referrer's, or the referee's): what the record still pays. */
  async lessReward(appId: string, id: string, field: 'rewardAmount' | 'refereeRewardAmount', amount: number): Promise<void> {
    await this.collection.updateOne(appId, { _id: id }, { $inc: { [field]: -amount } });
  }

  /**
   * A later purchase's reward added to the record's amount (its referrer's,
   * or the referee's), only while the record counts and its own rewards are
   * issued: a rejection takes out what the record holds when it is applied,
   * so a purchase counted on a rejected record would never be taken out, and
   * the issue sets the amount outright, so an earlier addition would be lost.
   * False when the record did not take it.
   */
  async addPurchaseReward(appId: string, id: string, field: 'rewardAmount' | 'refereeRewardAmount', amount: number): Promise<boolean> {
    const taken = { _id: id, status: { $in: COUNTED }, review: { $ne: 'REJECTED' }, rewardsIssuedAt: { $ne: null } };
    return (await this.collection.updateOne(appId, taken, { $inc: { [field]: amount } })) === 1;
  }

  /**
   * Claims `amount` of the conversion's own sale for a reversal, once, only
   * while the sale is as the reversal saw it (what was reversed before, and
   * not reversed in full): a concurrent reversal makes this one look again,
   * so the reversed amount never passes the sale's. A full one marks the
   * record REVERSED. The record after, or null when it changed meanwhile
   * (or holds this reversal already).
   */
  claimReversal(appId: string, root: Pick<ConversionDoc, '_id' | 'reversedAmount'>, reversal: { id: string; amount: number; full: boolean; at: Date }): Promise<ConversionDoc | null> {
    const before = root.reversedAmount ?? 0;
    const after = before + reversal.amount;
    return this.collection.findOneAndUpdate(
      appId,
      // Records stored before reversals have no reversedAmount: 0 is also "absent".
      { _id: root._id, level: 1, reversedAt: null, reversalIds: { $ne: reversal.id }, ...(before === 0 ? { reversedAmount: { $in: [0, null] } } : { reversedAmount: before }) },
      {
        $set: { reversedAmount: after, ...(reversal.full ? { reversedAt: reversal.at, status: 'REVERSED' } : {}) },
        $push: { reversalIds: reversal.id, reversalLog: { id: reversal.id, after } },
      },
    );
  }

  /** The records above a conversion fully reversed read REVERSED too (a repeatable write). */
  async markUplineReversed(appId: string, conversionId: string): Promise<void> {
    await this.collection.updateMany(appId, { conversionId, level: { $gt: 1 }, status: { $in: COUNTED } }, { $set: { status: 'REVERSED' } });
  }

  /** page() of every record, as a stream (an export). */
  all(appId: string, filter: ConversionListFilter): AsyncIterable<ConversionDoc> {
    return this.collection.stream(appId, listQuery(filter), NEWEST_FIRST);
  }

  /** newestOfReferrer() of every record, as a stream (an export). */
  allOfReferrer(appId: string, filter: ConversionListFilter, referrerId: string): AsyncIterable<ConversionDoc> {
    return this.collection.stream(appId, { ...listQuery(filter), referrerId }, NEWEST_FIRST);
  }

  /** GET /conversions without a user: newest activity first (ties by id). */
  page(appId: string, filter: ConversionListFilter, page: PageQuery): Promise<Page<ConversionDoc>> {
    return this.collection.page(appId, listQuery(filter), NEWEST_FIRST, page);
  }

  /** The records where the user is the referee, newest first: at most one per campaign and level, so read whole. */
  ofReferee(appId: string, filter: ConversionListFilter, refereeId: string): Promise<ConversionDoc[]> {
    return this.collection.find(appId, { ...listQuery(filter), refereeId }, { sort: NEWEST_FIRST });
  }

  /**
   * Whether the referral has a counted conversion (level 1, converted, not
   * rejected) besides `exceptId`: a rejection takes the referral out of the
   * campaign's completed referrals only when it was its last one.
   */
  async hasOtherCounted(appId: string, referralId: string, exceptId: string): Promise<boolean> {
    const found = await this.collection.findOne(appId, { referralId, level: 1, status: { $in: COUNTED }, review: { $ne: 'REJECTED' }, _id: { $ne: exceptId } });
    return found !== null;
  }

  /**
   * The counted records (every level, converted and not rejected) converted
   * in [from, to), of the app or one of its campaigns, as a stream: the
   * top referrers of a period, summed by the caller.
   */
  convertedBetween(appId: string, from: Date, to: Date, campaignId?: string): AsyncIterable<Pick<ConversionDoc, 'referrerId' | 'level' | 'rewardAmount'>> {
    return this.collection.model
      .find(
        { appId, ...(campaignId ? { campaignId } : {}), convertedAt: { $gte: from, $lt: to }, status: { $in: COUNTED } },
        { referrerId: 1, level: 1, rewardAmount: 1 },
      )
      .lean<Pick<ConversionDoc, 'referrerId' | 'level' | 'rewardAmount'>>()
      .cursor();
  }

  /**
   * Every counted record (converted, not rejected, every level) of one app
   * or every app, oldest conversion first: the participants recount (a
   * maintenance pass).
   */
  countedRows(appId?: string): AsyncIterable<Pick<ConversionDoc, 'appId' | 'level' | 'referrerId' | 'refereeId' | 'rewardAmount' | 'refereeRewardAmount' | 'convertedAt' | 'createdAt'>> {
    return this.collection.model
      .find(
        { ...(appId ? { appId } : {}), status: { $in: COUNTED }, review: { $ne: 'REJECTED' } },
        { appId: 1, level: 1, referrerId: 1, refereeId: 1, rewardAmount: 1, refereeRewardAmount: 1, convertedAt: 1, createdAt: 1 },
      )
      .sort({ convertedAt: 1 })
      .lean<Array<Pick<ConversionDoc, 'appId' | 'level' | 'referrerId' | 'refereeId' | 'rewardAmount' | 'refereeRewardAmount' | 'convertedAt' | 'createdAt'>>[number]>()
      .cursor();
  }

  /**
   * Conversions rejected before REJECTED was a status of their own (they
   * read FLAGGED), of every app: marked once at start (a system job, each
   * then handled with its own appId), so not scoped by one.
   */
  rejectedUnmarked(limit: number): Promise<Array<Pick<ConversionDoc, 'appId' | 'conversionId'>>> {
    return this.collection.model
      .find({ level: 1, ...SELECTED.rejectedUnmarked }, { appId: 1, conversionId: 1 })
      .limit(limit)
      .lean<Array<Pick<ConversionDoc, 'appId' | 'conversionId'>>>()
      .exec();
  }

  /** How many records the user has as the referrer. */
  countOfReferrer(appId: string, filter: ConversionListFilter, referrerId: string): Promise<number> {
    return this.collection.count(appId, { ...listQuery(filter), referrerId });
  }

  /** The user's newest `limit` records as the referrer. */
  newestOfReferrer(appId: string, filter: ConversionListFilter, referrerId: string, limit: number): Promise<ConversionDoc[]> {
    return this.collection.find(appId, { ...listQuery(filter), referrerId }, { sort: NEWEST_FIRST, limit });
  }

  /**
   * Level-1 conversions whose rewards are not settled, converted before
   * `before`, oldest first: the recovery pass's, a system job across apps
   * (each record is then handled with its own appId), so not scoped by one.
   */
  unsettledBefore(before: Date, limit: number): Promise<ConversionDoc[]> {
    return this.collection.model
      .find({ rewardsSettled: false, level: 1, convertedAt: { $lt: before } })
      .sort({ convertedAt: 1 })
      .limit(limit)
      .lean<ConversionDoc[]>()
      .exec();
  }

  /**
   * Every counted level-1 record's campaign, referral and time (converted, not rejected), of one app
   * or, without one, of every app: a maintenance pass (tools/referral-rebuild-stats.mjs).
   */
  countRows(appId?: string): AsyncIterable<ConversionCountRow> {
    return this.collection.model
      .find(
        { ...(appId ? { appId } : {}), level: 1, status: { $in: COUNTED }, review: { $ne: 'REJECTED' } },
        { appId: 1, campaignId: 1, referralId: 1, convertedAt: 1, createdAt: 1 },
      )
      .lean<ConversionCountRow>()
      .cursor();
  }
}

/** A change the rewards must follow: the records marked unsettled, their state version bumped. */
const stateChange = (set: Partial<ConversionDoc>) => ({ $set: { ...set, rewardsSettled: false }, $inc: { stateVersion: 1 } });
