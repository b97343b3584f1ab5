import { conflict } from '@ris/domain-errors';
import { stableEventId } from '@ris/events';
import { eventEntryKey, keyedEventId, referralActionKey, reversalEntryKey } from '../events/derived-ids';
import type { LedgerReversal } from '../ledger/balance-fold';
import type { Ledger } from '../ledger/ledger';
import type { LedgerEntryDoc } from '../ledger/ledger-entry.model';
import type { ConversionReversalDoc } from './conversion-reversal.model';
import type { ConversionReversalRepository } from './conversion-reversal.repository';
import { reversalMovement } from './take-back';

/** A full reversal of a conversion itself (not of a later purchase), as conversion.reversed gives it. */
export interface ConversionReversal {
  conversionId: string;
  referrerId: string;
  reversalId: string;
  reason: string;
  reversedAt: Date;
}

const MAX_ATTEMPTS = 200;

/**
 * The id the referral service gives a record's conversion.created
 * (its conversion-events.ts): the level-1 record's id is the conversion's.
 */
const conversionCreatedId = (appId: string, conversionId: string) => stableEventId('conversion.created', appId, conversionId);

const ledgerReversal = (doc: ConversionReversalDoc): LedgerReversal => ({ conversionId: doc.conversionId, id: doc.reversalId, reason: doc.reason });

/**
 * Referral credits taken back when their conversion is fully reversed
 * (product decisions §7.16): each reward conversion.created gave the
 * referrer gets one REVERSAL entry, which takes back what the balance still
 * holds of it and records the rest as unrecovered.
 *
 * Exactly once per reward: the entry's key is reversal:<event id>, unique
 * in the ledger, whoever writes it (a redelivery, another replica, the late
 * credit below). The two events come on separate consumers, so a reversal
 * may be handled before its conversion's credit is written. Each side
 * writes first and looks for the other after: the reversal is recorded
 * before its credits are looked for, and a credit looks for a recorded
 * reversal once it is written (afterCredit). Whichever looks second sees
 * what the other wrote, so no credit of a reversed conversion stays.
 */
export class ReferralCreditReversals {
  constructor(
    private readonly ledger: Ledger,
    private readonly reversals: ConversionReversalRepository,
  ) {}

  /** Handles a conversion's full reversal: its REVERSAL entries (those written before included). */
  async reverse(appId: string, reversal: ConversionReversal): Promise<LedgerEntryDoc[]> {
    const recorded = await this.reversals.record(appId, reversal);
    return this.takeBackCredits(appId, recorded);
  }

  /** After conversion.created credited the referrer: takes the credits back if the conversion was reversed already. */
  async afterCredit(appId: string, conversionId: string): Promise<LedgerEntryDoc[]> {
    const recorded = await this.reversals.ofConversion(appId, conversionId);
    return recorded ? this.takeBackCredits(appId, recorded) : [];
  }

  private async takeBackCredits(appId: string, recorded: ConversionReversalDoc): Promise<LedgerEntryDoc[]> {
    const entries: LedgerEntryDoc[] = [];
    for (const reward of await this.creditsOf(appId, recorded)) entries.push(await this.takeBack(appId, reward, ledgerReversal(recorded)));
    return entries;
  }

  /**
   * The rewards conversion.created gave the referrer, as the ledger holds
   * them: one per REFERRAL_REFEREE_ACTION action of that moment, whatever
   * the actions are now, under the key of the event its idempotency key
   * names. The actions a user was ever rewarded for are the keys of their
   * balance's `actions`, so those are the only candidates: one lookup by
   * the ledger's unique key each, no scan of the user's events.
   */
  private async creditsOf(appId: string, recorded: ConversionReversalDoc): Promise<LedgerEntryDoc[]> {
    const { referrerId } = recorded;
    const { state } = await this.ledger.settled(appId, referrerId);
    const created = conversionCreatedId(appId, recorded.conversionId);
    const found = await Promise.all(
      Object.keys(state.actions).map((actionKey) => this.ledger.findByKey(appId, eventEntryKey(keyedEventId(appId, referrerId, referralActionKey(created, actionKey))))),
    );
    // Only the rewards the referral consumer wrote (a STANDARD event posted with such a key is not one).
    return found.filter((e): e is LedgerEntryDoc => e !== null && e.reason === 'ACTION_REWARD' && e.actionType === 'REFERRAL_REFEREE_ACTION');
  }

  /** One reward's REVERSAL, written once, or the one written before (settled, in case its writer died before applying it). */
  private takeBack(appId: string, reward: LedgerEntryDoc, reversal: LedgerReversal): Promise<LedgerEntryDoc> {
    const { userId } = reward;
    const key = reversalEntryKey(reward.sourceId);
    const earlier = async () => {
      const entry = await this.ledger.findByKey(appId, key);
      if (entry) await this.ledger.settled(appId, userId);
      return entry;
    };
    return this.ledger.serialized(appId, userId, async () => {
      const done = await earlier();
      if (done) return done;
      let state = await this.ledger.read(appId, userId);
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        // Planned against this version of the balance; written only if it is still the one (a spend meanwhile: plan again).
        const result = await this.ledger.append(appId, userId, state, [reversalMovement(reward, reversal, state, new Date())]);
        if (result.kind === 'applied') return result.entries[0];
        const written = result.keyTaken ? await earlier() : null;
        if (written) return written;
        state = await this.ledger.afterConflict(appId, userId, attempt);
      }
      throw conflict('CONFLICT', 'Too many concurrent changes to this balance; retry.');
    });
  }
}
