import type { CodeKeyCache } from './code-key-cache';
import { normalizeReferralCode } from './referral-code';
import type { ReferralKeyDoc } from './referral-key.model';
import type { ReferralKeyRepository } from './referral-key.repository';
import type { ReferralDoc, ReferralRef } from './referral.model';
import type { ReferralRepository } from './referral.repository';

/** About 30 MB of code keys: the codes being clicked at the moment. */
const CODE_KEY_CACHE_SIZE = 100_000;

/** A code key's id: `<appId>:<code>`. */
export const codeKeyId = (appId: string, code: string) => `${appId}:${code}`;
/** An owner key's id: `<appId>:<campaignId>:<referrerId>`. */
export const ownerKeyId = (appId: string, campaignId: string, referrerId: string) => `${appId}:${campaignId}:${referrerId}`;

/**
 * Referrals found in one primary-key read, by code or by owner
 * (referral-key.model.ts): clicks, conversions and new referrals look
 * referrals up on every request. A code's key never changes once written,
 * so this process keeps the ones it looked up, and the replicas share
 * them through Redis (CodeKeyCache).
 */
export class ReferralLookup {
  /** Code keys this process looked up, by id, oldest first (a Map keeps insertion order): at most CODE_KEY_CACHE_SIZE. */
  private readonly codeKeysSeen = new Map<string, ReferralKeyDoc>();

  constructor(
    private readonly referrals: ReferralRepository,
    private readonly codeKeys: ReferralKeyRepository,
    private readonly ownerKeys: ReferralKeyRepository,
    /** Code keys shared by the replicas (Redis); without it every process reads MongoDB once per code. */
    private readonly codeKeyCache?: CodeKeyCache,
  ) {}

  /** Writes the referral's lookup keys, by code and by owner (after the referral itself is stored). */
  async addKeys(appId: string, referral: ReferralRef): Promise<void> {
    const fields = { appId, referralId: referral._id, campaignId: referral.campaignId, referrerId: referral.referrerId, code: referral.code };
    // Independent documents: written side by side (the cache's copy too).
    await Promise.all([
      this.codeKeys.add({ _id: codeKeyId(appId, referral.code), ...fields }),
      this.ownerKeys.add({ _id: ownerKeyId(appId, referral.campaignId, referral.referrerId), ...fields }),
      this.codeKeyCache?.put({ _id: codeKeyId(appId, referral.code), ...fields }),
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
      key = await this.codeKeys.findById(appId, id);
      if (key) {
        await this.codeKeyCache?.put(key);
      } else {
        const referral = await this.referrals.withCode(appId, code);
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
  async byCode(appId: string, rawCode: string): Promise<ReferralDoc | null> {
    const key = await this.codeKey(appId, rawCode);
    return key ? this.referralOf(appId, key) : null;
  }

  /** The whole referral a code key names. */
  referralOf(appId: string, key: ReferralKeyDoc): Promise<ReferralDoc | null> {
    return this.referrals.findById(appId, key.referralId);
  }

  /**
   * The referral a user owns in a campaign (one per referrer and campaign),
   * by its owner key. No fallback query: most users asked about have no
   * referral, and a referral whose keys were lost gets them back when its
   * owner asks for one again (the unique index sends that request to it).
   */
  async ofReferrer(appId: string, campaignId: string, referrerId: string): Promise<ReferralDoc | null> {
    const key = await this.ownerKeys.findById(appId, ownerKeyId(appId, campaignId, referrerId));
    return key ? this.referrals.findById(appId, key.referralId) : null;
  }
}
