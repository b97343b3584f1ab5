import { inBatches, type Page, type PageQuery } from '@ris/mongo';
import type { ParticipantDoc } from './participant.model';
import type { ParticipantFilter, ParticipantOrder, ParticipantRepository } from './participant.repository';

export type { ParticipantFilter, ParticipantOrder };

/** Participants an export sends a message. */
const EXPORT_BATCH = 100;

/** What a counted (or, rejected, uncounted) conversion record changes for the people on it. */
export interface CountedRecord {
  level: number;
  referrerId: string;
  refereeId: string;
  /** This record's referrer's reward. */
  rewardAmount: number;
  /** The referee's own reward (level 1 of a double-sided campaign). */
  refereeRewardAmount: number;
  at: Date;
}

/**
 * The app's people as the referral program sees them, and whether the
 * incentive engine has seen them (GET /participants). Counters move with
 * the campaign counters they sit beside, under the same once-markers
 * (ConversionRewards): a referral created, a conversion counted, a
 * rejection taken out. Fields that are set rather than added (an e-mail,
 * the last activity) can be written any number of times.
 */
export class Participants {
  constructor(private readonly participants: ParticipantRepository) {}

  /** A referral created: its referrer owns one code more. */
  referralCreated(appId: string, referral: { referrerId: string; referrerEmail: string | null; createdAt: Date }): Promise<void> {
    return this.participants.change(appId, referral.referrerId, {
      inc: { referrals: 1 },
      set: referral.referrerEmail ? { email: referral.referrerEmail.toLowerCase() } : undefined,
      activeAt: referral.createdAt,
    });
  }

  /** The user took part (converted, or sent their address with a request): their address and their activity. */
  async seen(appId: string, userId: string, email: string | null, at: Date): Promise<void> {
    await this.participants.change(appId, userId, { set: email ? { email: email.toLowerCase() } : undefined, activeAt: at });
  }

  /**
   * A conversion record counted (`sign` 1) or taken out after a rejection
   * (-1): at level 1 the referrer's conversion and reward, and the referee's
   * conversion and reward; above, the referrer's reward.
   */
  async counted(appId: string, record: CountedRecord, sign: 1 | -1): Promise<void> {
    const referrer = this.participants.change(appId, record.referrerId, {
      inc: { ...(record.level === 1 ? { conversions: sign } : {}), ...(record.rewardAmount ? { rewardValue: sign * record.rewardAmount } : {}) },
      activeAt: record.at,
    });
    if (record.level !== 1) return referrer;
    const referee = this.participants.change(appId, record.refereeId, {
      inc: record.refereeRewardAmount ? { rewardValue: sign * record.refereeRewardAmount } : undefined,
      set: sign === 1 ? { referredBy: record.referrerId, convertedAt: record.at } : { referredBy: null, convertedAt: null },
      activeAt: record.at,
    });
    await Promise.all([referrer, referee]);
  }

  /** One of the user's rewards cancelled by an operator. */
  rewardCancelled(appId: string, userId: string, amount: number, at: Date): Promise<void> {
    return this.participants.change(appId, userId, { inc: { rewardValue: -amount }, activeAt: at });
  }

  /** A reward of a later purchase counted for the user (the purchase's referee or a referrer above them). */
  rewardEarned(appId: string, userId: string, amount: number, at: Date): Promise<void> {
    return this.participants.change(appId, userId, { inc: { rewardValue: amount }, activeAt: at });
  }

  /** The incentive engine recorded an event of the user (set, so a redelivered event changes nothing). */
  engaged(appId: string, userId: string, at: Date): Promise<void> {
    return this.participants.change(appId, userId, { set: { engaged: true }, activeAt: at });
  }

  list(appId: string, filter: ParticipantFilter, order: ParticipantOrder, page: PageQuery): Promise<Page<ParticipantDoc>> {
    return this.participants.page(appId, filter, order, page);
  }

  /**
   * Every participant list() would list, in its order, a batch at a time:
   * an export (a batch is at most what GetParticipants and the engine's
   * ListBalances take, so the gateway completes each in one call).
   */
  export(appId: string, filter: ParticipantFilter, order: ParticipantOrder): AsyncIterable<ParticipantDoc[]> {
    return inBatches(this.participants.all(appId, filter, order), EXPORT_BATCH);
  }

  ofUsers(appId: string, userIds: string[]): Promise<ParticipantDoc[]> {
    return this.participants.ofUsers(appId, userIds);
  }
}
