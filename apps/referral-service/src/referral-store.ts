import type { Connection } from 'mongoose';
import type { Outbox, OutboxCarrier } from '@ris/events';
import { AppScoped, DocumentWriteQueue, OnceMarkers, SerialByKey, isDuplicateKeyError } from '@ris/mongo';
import { CampaignStats } from './stats/campaign-stats';
import type { Campaigns } from './campaigns/campaigns';
import { clickModel, type ClickDoc } from './clicks/click.model';
import type { CodeKeyCache } from './referrals/code-key-cache';
import { conversionModel, type ConversionDoc } from './conversions/conversion.model';
import { deferredFraudCheckModel, type DeferredFraudCheckDoc } from './fraud-check/deferred-fraud-check.model';
import { fraudFlagModel, type FraudFlagDoc } from './flags/fraud-flag.model';
import { normalizeReferralCode } from './referrals/referral-code';
import { codeKeyId, ownerKeyId, referralCodeKeyModel, referralOwnerKeyModel, type ReferralKeyDoc } from './referrals/referral-key.model';
import { referralCountersModel, type ReferralCountersDoc } from './referrals/referral-counters.model';
import { ReferralLinks } from './referrals/referral-links';
import { referralModel, type ReferralDoc, type ReferralRef } from './referrals/referral.model';

/** About 30 MB of code keys: the codes being clicked at the moment. */
const CODE_KEY_CACHE_SIZE = 100_000;

/**
 * The referral service's collections, each behind AppScoped (appId in every
 * query), with the campaign reader, the counters and the carriers of their
 * events: what the domain modules share.
 */
export class ReferralStore {
  readonly referrals: AppScoped<ReferralDoc>;
  readonly codeKeys: AppScoped<ReferralKeyDoc>;
  readonly ownerKeys: AppScoped<ReferralKeyDoc>;
  readonly counters: AppScoped<ReferralCountersDoc>;
  readonly clicks: AppScoped<ClickDoc>;
  readonly conversions: AppScoped<ConversionDoc>;
  readonly flags: AppScoped<FraudFlagDoc>;
  readonly deferredChecks: AppScoped<DeferredFraudCheckDoc>;
  readonly stats: CampaignStats;
  /** The codes of hosted links, unique across apps. */
  readonly links: ReferralLinks;
  /** Changes of a referral after its creation (status, level, flag), one at a time per referral. */
  readonly referralWrites: DocumentWriteQueue<ReferralDoc>;
  /** Increments of referrals' counters, coalesced per referral. */
  readonly counterWrites: DocumentWriteQueue<ReferralCountersDoc>;
  readonly once: OnceMarkers;
  /** referral.created, stored with the referral it announces. */
  readonly referralEvents: OutboxCarrier;
  /** referral.clicked, a batch's stored with its clicks. */
  readonly clickEvents: OutboxCarrier;
  /** conversion.created and conversion.flagged, stored with the record's change they announce. */
  readonly conversionEvents: OutboxCarrier;
  /** Writes to a conversion's records, one at a time per conversion in this process (see writeConversion). */
  private readonly conversionLocks = new SerialByKey();
  /** Code keys this process looked up, by id, oldest first (a Map keeps insertion order): at most CODE_KEY_CACHE_SIZE. */
  private readonly codeKeysSeen = new Map<string, ReferralKeyDoc>();

  constructor(
    db: Connection,
    readonly campaigns: Campaigns,
    outbox: Outbox,
    /** Code keys shared by the replicas (Redis); without it every process reads MongoDB once per code. */
    private readonly codeKeyCache?: CodeKeyCache,
  ) {
    this.referrals = new AppScoped(referralModel(db));
    this.codeKeys = new AppScoped(referralCodeKeyModel(db));
    this.ownerKeys = new AppScoped(referralOwnerKeyModel(db));
    this.counters = new AppScoped(referralCountersModel(db));
    this.clicks = new AppScoped(clickModel(db));
    this.conversions = new AppScoped(conversionModel(db));
    this.flags = new AppScoped(fraudFlagModel(db));
    this.deferredChecks = new AppScoped(deferredFraudCheckModel(db));
    this.stats = new CampaignStats(db);
    this.links = new ReferralLinks(db);
    this.referralWrites = new DocumentWriteQueue(this.referrals);
    this.counterWrites = new DocumentWriteQueue(this.counters);
    this.once = new OnceMarkers(db);
    // A referral's later changes go through referralWrites, and so does the clean-up of its event.
    this.referralEvents = outbox.carrier(this.referrals.model, {
      lock: { run: (doc, work) => this.referralWrites.exclusive(doc.appId, { _id: doc._id }, work) },
    });
    // Clicks are never written again.
    this.clickEvents = outbox.carrier(this.clicks.model);
    this.conversionEvents = outbox.carrier(this.conversions.model, {
      lock: { fields: ['conversionId'], run: (doc, work) => this.writeConversion(doc.appId, doc.conversionId as string, work) },
    });
  }

  /**
   * Runs a write to a converted conversion's records (their rewards issued,
   * a score or review applied, their settling, their events cleared) after
   * the ones already running in this process: FerretDB v1 applies an update
   * as a read and a write of the whole document, so two at once could undo
   * each other. On MongoDB it only orders this process's writes.
   */
  writeConversion<R>(appId: string, conversionId: string, work: () => Promise<R>): Promise<R> {
    return this.conversionLocks.run(`${appId}\u0000${conversionId}`, work);
  }

  /** Queues a fraud check the fraud service could not answer, for the recovery pass. */
  async deferFraudCheck(appId: string, kind: DeferredFraudCheckDoc['kind'], subjectId: string): Promise<void> {
    try {
      await this.deferredChecks.create(appId, { _id: subjectId, kind, createdAt: new Date() });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  /** Writes the referral's lookup keys, by code and by owner (after the referral itself is stored). */
  async addKeys(appId: string, referral: ReferralRef): Promise<void> {
    const fields = { referralId: referral._id, campaignId: referral.campaignId, referrerId: referral.referrerId, code: referral.code };
    const keys: Array<[AppScoped<ReferralKeyDoc>, string]> = [
      [this.codeKeys, codeKeyId(appId, referral.code)],
      [this.ownerKeys, ownerKeyId(appId, referral.campaignId, referral.referrerId)],
    ];
    // Independent documents: written side by side (the cache's copy too).
    await Promise.all([
      ...keys.map(([collection, _id]) =>
        collection.create(appId, { _id, ...fields }).catch((err: unknown) => {
          if (!isDuplicateKeyError(err)) throw err;
        }),
      ),
      this.codeKeyCache?.put({ _id: codeKeyId(appId, referral.code), appId, ...fields }),
    ]);
  }

  /**
   * What never changes about the referral of a code, by its code key. A
   * referral without its keys (its process died between the two writes) is
   * found by the referrals' unique code index instead, and gets them.
   */
  async codeKey(appId: string, rawCode: string): Promise<ReferralKeyDoc | null> {
    const code = normalizeReferralCode(rawCode);
    const id = codeKeyId(appId, code);
    // A code's key never changes once written: this process keeps the ones
    // it looked up, and the replicas share them through Redis (misses are
    // not kept: the code may come later).
    const cached = this.codeKeysSeen.get(id);
    if (cached) return cached;
    let key = await this.codeKeyCache?.get(id);
    if (key && key.appId !== appId) key = null;
    if (!key) {
      key = await this.codeKeys.findOne(appId, { _id: id });
      if (key) {
        await this.codeKeyCache?.put(key);
      } else {
        const referral = await this.referrals.findOne(appId, { code });
        if (!referral) return null;
        await this.addKeys(appId, referral);
        key = { _id: id, appId, referralId: referral._id, campaignId: referral.campaignId, referrerId: referral.referrerId, code };
      }
    }
    if (this.codeKeysSeen.size >= CODE_KEY_CACHE_SIZE) this.codeKeysSeen.delete(this.codeKeysSeen.keys().next().value as string);
    this.codeKeysSeen.set(id, key);
    return key;
  }

  /** The whole referral of a code: its key, then the referral by id. */
  async referralByCode(appId: string, rawCode: string): Promise<ReferralDoc | null> {
    const key = await this.codeKey(appId, rawCode);
    return key ? this.referrals.findOne(appId, { _id: key.referralId }) : null;
  }

  /**
   * The referral a user owns in a campaign (one per referrer and campaign),
   * by its owner key. No fallback query: most users asked about have no
   * referral, and a referral whose keys were lost gets them back when its
   * owner asks for one again (the unique index sends that request to it).
   */
  async referralOf(appId: string, campaignId: string, referrerId: string): Promise<ReferralDoc | null> {
    const key = await this.ownerKeys.findOne(appId, { _id: ownerKeyId(appId, campaignId, referrerId) });
    return key ? this.referrals.findOne(appId, { _id: key.referralId }) : null;
  }

  /** Adds to a referral's counters: `conversions.L<n>`, rewardAmount. */
  countOnReferral(appId: string, referral: Pick<ReferralRef, '_id' | 'campaignId' | 'referrerId'>, inc: Record<string, number>): Promise<void> {
    return this.counterWrites.increment(appId, { _id: referral._id }, inc, { campaignId: referral.campaignId, referrerId: referral.referrerId });
  }

  updateReferral(appId: string, referralId: string, set: Partial<ReferralDoc>): Promise<void> {
    return this.referralWrites.update(appId, { _id: referralId }, { $set: set });
  }
}
