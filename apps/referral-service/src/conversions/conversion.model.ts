import { Schema, type Connection, type Model } from 'mongoose';
import type { ConversionStatus, EnumName } from '@ris/contracts';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { ClientContextDoc, FraudCheckState, FraudDoc } from '../referrals/referral.model';
import type { SaleReversalEntry } from '../reversals/sale-reversal-entry';
import type { ConversionRepository } from './conversion.repository';

/** PENDING, CLICKED, CONVERTED, FLAGGED or REJECTED: the names of the contract's ConversionStatus. */
export type ConversionStatusName = EnumName<typeof ConversionStatus>;
export type ReviewState = 'OPEN' | 'APPROVED' | 'REJECTED';

/**
 * One referee in one campaign at one level (docs/product-decisions.md §4.5). Level 1 is
 * the funnel record: PENDING (referee known) → CLICKED → CONVERTED or
 * FLAGGED, attributed to the code last touched; a FLAGGED one becomes
 * CONVERTED when its flag is approved, REJECTED when it is rejected. A conversion adds a record
 * per referrer above (level 2, 3, …) with that referrer's code as
 * referralCode and the code used as originalReferralCode.
 */
export interface ConversionDoc extends OutboxFields {
  _id: string;
  appId: string;
  campaignId: string;
  /** Id of the level-1 record of the same conversion (its own id at level 1). */
  conversionId: string;
  referralId: string;
  referralCode: string;
  originalReferralCode: string;
  referrerId: string;
  refereeId: string;
  level: number;
  status: ConversionStatusName;
  /** Monetary value the caller reported. */
  amount: number | null;
  /**
   * ISO 4217 code of amount and the reward amounts: the campaign's, stored at the conversion (a purchase or a reversal
   * reads it here). null on funnel records not yet converted and on records stored before currencies: the campaign's.
   */
  currency: string | null;
  /**
   * The caller's metadata as JSON text: any key and any string survive ("$x", "a.b", NUL,
   * which PostgreSQL under FerretDB refuses in a stored field). Never read back by the API.
   */
  metadataJson: string | null;
  /**
   * Level 1: what reversals took off the conversion's own amount (absent
   * on records stored before reversals: 0). Upline records: 0.
   */
  reversedAmount?: number;
  /** Level 1: the reversals applied to the conversion's own sale, each once (the condition of claiming one). */
  reversalIds?: string[];
  /** Level 1: each applied reversal with what was reversed after it, to decide the share left for its rewards. */
  reversalLog?: SaleReversalEntry[];
  /** When the conversion was reversed in full (status REVERSED since); null otherwise. */
  reversedAt?: Date | null;
  /** This record's referrer's reward (0: none, capped or not yet issued). */
  rewardAmount: number;
  /** The referee's own reward on a double-sided campaign (level 1 only). */
  refereeRewardAmount: number;
  /** False when converted outside the campaign's attribution window: recorded, no rewards. */
  attributed: boolean;
  isFlagged: boolean;
  fraud: FraudDoc;
  /** null until converted. */
  fraudCheck: FraudCheckState | null;
  /** Referee context, kept only while the fraud check is DEFERRED. */
  context: ClientContextDoc | null;
  review: ReviewState | null;
  /** Set once the rewards were asked for and the conversion events written. */
  rewardsIssuedAt: Date | null;
  /** Bumped by every change that the rewards must follow (score, review). */
  stateVersion: number;
  /** The rewards' statuses match stateVersion (held, approved or cancelled as they should be). */
  rewardsSettled: boolean;
  /** First touch through this record's code: the attribution window starts here. */
  touchedAt: Date;
  clickedAt: Date | null;
  convertedAt: Date | null;
  /** Latest funnel step: GET /conversions lists newest first by it. */
  lastEventAt: Date;
  createdAt: Date;
}

const fraudSchema = new Schema<FraudDoc>({ riskScore: Number, reasons: [String], warning: String }, { _id: false });
const contextSchema = new Schema<ClientContextDoc>({ ip: String, userAgent: String, deviceId: String, email: String }, { _id: false });

const conversionSchema = new Schema<ConversionDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    campaignId: { type: String, required: true },
    conversionId: { type: String, required: true },
    referralId: { type: String, required: true },
    referralCode: { type: String, required: true },
    originalReferralCode: { type: String, required: true },
    referrerId: { type: String, required: true },
    refereeId: { type: String, required: true },
    level: { type: Number, required: true },
    status: { type: String, required: true },
    amount: { type: Number, default: null },
    currency: { type: String, default: null },
    metadataJson: { type: String, default: null },
    reversedAmount: { type: Number, default: 0 },
    reversalIds: { type: [String], default: undefined },
    reversalLog: { type: [new Schema<SaleReversalEntry>({ id: String, after: Number }, { _id: false })], default: undefined },
    reversedAt: { type: Date, default: null },
    rewardAmount: { type: Number, default: 0 },
    refereeRewardAmount: { type: Number, default: 0 },
    attributed: { type: Boolean, default: true },
    isFlagged: { type: Boolean, default: false },
    fraud: { type: fraudSchema, default: () => ({ riskScore: null, reasons: [], warning: null }) },
    fraudCheck: { type: String, default: null },
    context: { type: contextSchema, default: null },
    review: { type: String, default: null },
    rewardsIssuedAt: { type: Date, default: null },
    stateVersion: { type: Number, default: 0 },
    rewardsSettled: { type: Boolean, default: true },
    touchedAt: { type: Date, required: true },
    clickedAt: { type: Date, default: null },
    convertedAt: { type: Date, default: null },
    lastEventAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'conversions', versionKey: false },
);
declareIndexes<QueryNames<ConversionRepository>>(conversionSchema, [
  {
    keys: { appId: 1, campaignId: 1, refereeId: 1, level: 1 },
    options: { unique: true },
    serves: ['refereeRecord', 'convertedLink', 'insertRecord', 'insertUplineRecord', 'moveFunnelRecord'],
    why:
      'a referee converts at most once per campaign, and has one record per level: the unique index decides two concurrent conversions ' +
      '(and a conversion racing the click that creates the funnel record); with level 1 it also serves the referral tree ' +
      '("did this user convert, and through which referral")',
  },
  {
    keys: { appId: 1, conversionId: 1 },
    serves: ['recordsOf', 'markSettled', 'changeRecords', 'selectedRecords', 'markUplineReversed'],
    why: "a conversion's records (flag review, settling its rewards)",
  },
  // GET /conversions, newest first (ties by id), and each of its filters: the sort is the index order, so a page reads only its own entries.
  { keys: { appId: 1, lastEventAt: -1, _id: -1 }, serves: ['page', 'all'] },
  { keys: { appId: 1, campaignId: 1, lastEventAt: -1, _id: -1 }, serves: ['page', 'all'] },
  { keys: { appId: 1, originalReferralCode: 1, lastEventAt: -1, _id: -1 }, serves: ['page', 'all'] },
  { keys: { appId: 1, status: 1, lastEventAt: -1, _id: -1 }, serves: ['page', 'all'] },
  // GET /conversions?userId=: the user's records as the referrer, and as the referee; two queries merged (conversion-list.ts), not an $or.
  { keys: { appId: 1, referrerId: 1, lastEventAt: -1, _id: -1 }, serves: ['countOfReferrer', 'newestOfReferrer', 'allOfReferrer'] },
  { keys: { appId: 1, refereeId: 1, lastEventAt: -1, _id: -1 }, serves: ['ofReferee'] },
  { keys: { rewardsSettled: 1, convertedAt: 1 }, serves: ['unsettledBefore'], why: 'the recovery pass (every app): conversions whose rewards are not settled yet' },
  // The top referrers of a period: the records converted in it, of the app or of one campaign.
  { keys: { appId: 1, convertedAt: 1 }, serves: ['convertedBetween'] },
  { keys: { appId: 1, campaignId: 1, convertedAt: 1 }, serves: ['convertedBetween'] },
  {
    keys: { appId: 1, referralId: 1, level: 1 },
    serves: ['hasOtherCounted'],
    why: "a rejected conversion's referral: does it keep another counted conversion (the campaign's completed referrals)",
  },
  {
    keys: { review: 1, level: 1 },
    serves: ['rejectedUnmarked'],
    why: 'at start (every app): conversions rejected before REJECTED was a status, to mark them and take them out of the figures',
  },
]);

// conversion.created and conversion.flagged wait on their record until published.
carriesEvents(conversionSchema);

export const conversionModel = (db: Connection): Model<ConversionDoc> =>
  (db.models.Conversion as Model<ConversionDoc> | undefined) ?? db.model<ConversionDoc>('Conversion', conversionSchema);
