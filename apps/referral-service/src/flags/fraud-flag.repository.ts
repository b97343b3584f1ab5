import type { Connection } from 'mongoose';
import type { EnumName, FraudFlagSort } from '@ris/contracts';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { fraudFlagModel, type FlagResolver, type FlagStatus, type FlagSubject, type FraudFlagDoc } from './fraud-flag.model';

/** Newest first (CREATED_AT), or riskiest first, then newest (RISK_SCORE): the names of the contract's FraudFlagSort. */
export type FlagOrder = EnumName<typeof FraudFlagSort>;

export interface FlagFilter {
  status?: FlagStatus;
  campaignId?: string;
}

const ORDER: Record<FlagOrder, Record<string, -1>> = {
  CREATED_AT: { createdAt: -1, _id: -1 },
  RISK_SCORE: { riskScore: -1, createdAt: -1, _id: -1 },
};

/** The fraud flags (fraud-flag.model.ts names the index of each query). */
export class FraudFlagRepository extends Repository<FraudFlagDoc> {
  constructor(db: Connection) {
    super(fraudFlagModel(db));
  }

  /** A new flag, or the one its subject has already (a retry, the recovery pass): one per subject. */
  raise(appId: string, flag: Omit<FraudFlagDoc, 'appId'>): Promise<{ doc: FraudFlagDoc; created: boolean }> {
    return this.insertOrFind(appId, flag, () => this.ofSubject(appId, flag.subject, flag.subjectId));
  }

  /** The flag of a referral or conversion. */
  ofSubject(appId: string, subject: FlagSubject, subjectId: string): Promise<FraudFlagDoc | null> {
    return this.collection.findOne(appId, { subject, subjectId });
  }

  /** GET /fraud/flags: each filter and order has its index. */
  page(appId: string, filter: FlagFilter, order: FlagOrder, page: PageQuery): Promise<Page<FraudFlagDoc>> {
    const query: Record<string, string> = {};
    if (filter.campaignId) query.campaignId = filter.campaignId;
    if (filter.status) query.status = filter.status;
    return this.collection.page(appId, query, ORDER[order], page);
  }

  /** The decision onto the flag, its effects still to apply. */
  resolve(appId: string, flagId: string, decision: { status: FlagStatus; note: string | null; resolvedBy: FlagResolver | null }): Promise<FraudFlagDoc | null> {
    const { status, note, resolvedBy } = decision;
    return this.collection.findOneAndUpdate(appId, { _id: flagId }, { $set: { status, note, resolvedAt: new Date(), resolvedBy, effectsAppliedAt: null } });
  }

  /** Notes that the decision's effects on records and rewards are applied. */
  effectsApplied(appId: string, flagId: string): Promise<FraudFlagDoc | null> {
    return this.collection.findOneAndUpdate(appId, { _id: flagId }, { $set: { effectsAppliedAt: new Date() } });
  }

  /**
   * Decisions whose effects were not applied, made before `before`, at most
   * `limit`: the recovery pass's, a system job across apps (each flag is
   * then handled with its own appId), so not scoped by one.
   */
  interruptedBefore(before: Date, limit: number): Promise<FraudFlagDoc[]> {
    return this.collection.model.find({ effectsAppliedAt: null, resolvedAt: { $lt: before } }).limit(limit).lean<FraudFlagDoc[]>().exec();
  }
}
