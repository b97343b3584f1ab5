import type { Connection } from 'mongoose';
import type { Outbox, OutboxCarrier } from '@ris/events';
import { DocumentWriteQueue, Repository, type Page, type PageQuery } from '@ris/mongo';
import { referralModel, type ReferralDoc } from './referral.model';

export interface ReferralListFilter {
  campaignId?: string;
  referrerId?: string;
}

/** What a recount of the campaign counters reads of a referral. */
export type ReferralCountRow = Pick<ReferralDoc, 'appId' | 'campaignId' | 'createdAt'>;

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** GET /referrals' filters that are set, as the query (referral.model.ts has the index of each). */
function listQuery(filter: ReferralListFilter): Record<string, string> {
  const query: Record<string, string> = {};
  if (filter.campaignId) query.campaignId = filter.campaignId;
  if (filter.referrerId) query.referrerId = filter.referrerId;
  return query;
}

/**
 * The stored referrals: every question asked of them, by name
 * (referral.model.ts names the index of each), and their writes after
 * creation, one at a time per referral in this process.
 */
export class ReferralRepository extends Repository<ReferralDoc> {
  /** referral.created, stored with the referral it announces. */
  readonly events: OutboxCarrier;
  /** Changes of a referral after its creation (status, level, flag), one at a time per referral. */
  private readonly writes: DocumentWriteQueue<ReferralDoc>;

  constructor(db: Connection, outbox: Outbox) {
    super(referralModel(db));
    this.writes = new DocumentWriteQueue(this.collection);
    // A referral's later changes go through `writes`, and so does the clean-up of its event.
    this.events = outbox.carrier(this.collection.model, {
      lock: { run: (doc, work) => this.writes.exclusive(doc.appId, { _id: doc._id }, work) },
    });
  }

  /**
   * A new referral (with its events' fields); null when its code or its
   * referrer's place in the campaign is taken already (the unique indexes
   * decide races).
   */
  insert(appId: string, referral: Omit<ReferralDoc, 'appId'>): Promise<ReferralDoc | null> {
    return this.insertUnlessTaken(appId, referral);
  }

  /** The referral of a code, by the code's unique index: for a referral whose code keys a crash left unwritten. */
  withCode(appId: string, code: string): Promise<ReferralDoc | null> {
    return this.collection.findOne(appId, { code });
  }

  /** The referral of a referrer in a campaign (one at most), by the unique index. */
  ofReferrer(appId: string, campaignId: string, referrerId: string): Promise<ReferralDoc | null> {
    return this.collection.findOne(appId, { campaignId, referrerId });
  }

  /** GET /referrals: newest first (ties by id), of a campaign, of a referrer, or all. */
  page(appId: string, filter: ReferralListFilter, page: PageQuery): Promise<Page<ReferralDoc>> {
    return this.collection.page(appId, listQuery(filter), NEWEST_FIRST, page);
  }

  /** page() of every referral, as a stream (an export). */
  all(appId: string, filter: ReferralListFilter): AsyncIterable<ReferralDoc> {
    return this.collection.stream(appId, listQuery(filter), NEWEST_FIRST);
  }

  /** How many referrals a referrer has, in one campaign or in all (GET /users/{userId}/stats). */
  countOfReferrer(appId: string, referrerId: string, campaignId?: string): Promise<number> {
    return this.collection.count(appId, campaignId ? { referrerId, campaignId } : { referrerId });
  }

  /** Changes a referral after its creation, after the changes of it this process has under way. */
  update(appId: string, referralId: string, set: Partial<ReferralDoc>): Promise<void> {
    return this.writes.update(appId, { _id: referralId }, { $set: set });
  }

  /**
   * Every referral's campaign and creation time, of one app or, without
   * one, of every app: a maintenance pass (tools/referral-rebuild-stats.mjs),
   * the one read here not scoped by an app.
   */
  /** Every referral's referrer, address and time, of one app or every app: the participants recount (a maintenance pass). */
  peopleRows(appId?: string): AsyncIterable<Pick<ReferralDoc, 'appId' | 'referrerId' | 'referrerEmail' | 'createdAt'>> {
    return this.collection.model
      .find(appId ? { appId } : {}, { appId: 1, referrerId: 1, referrerEmail: 1, createdAt: 1 })
      .sort({ createdAt: 1 })
      .lean<Pick<ReferralDoc, 'appId' | 'referrerId' | 'referrerEmail' | 'createdAt'>>()
      .cursor();
  }

  countRows(appId?: string): AsyncIterable<ReferralCountRow> {
    return this.collection.model
      .find(appId ? { appId } : {}, { appId: 1, campaignId: 1, createdAt: 1 })
      .lean<ReferralCountRow>()
      .cursor();
  }
}
