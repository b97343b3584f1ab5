import type { Logger } from '@ris/logging';
import type { ConversionRepository } from '../conversions/conversion.repository';
import type { ReferralRepository } from '../referrals/referral.repository';
import type { ParticipantDoc } from './participant.model';
import type { ParticipantRepository } from './participant.repository';

/** What the recount reads, and where a fix writes. */
export interface ParticipantSources {
  referrals: ReferralRepository;
  conversions: ConversionRepository;
  participants: ParticipantRepository;
}

/** A participant's figures as the referral program's documents say them. */
interface Recounted {
  appId: string;
  userId: string;
  referrals: number;
  conversions: number;
  rewardValue: number;
  referredBy: string | null;
  convertedAt: Date | null;
  email?: string;
  first: Date;
  last: Date;
}

export interface ParticipantDrift {
  appId: string;
  userId: string;
  field: 'referrals' | 'conversions' | 'rewardValue' | 'referredBy' | 'missing';
  stored: string | number | null;
  expected: string | number | null;
}

export interface ParticipantReport {
  participants: number;
  drifted: ParticipantDrift[];
  fixed: number;
}

const key = (appId: string, userId: string) => `${appId}\u0000${userId}`;
const closeEnough = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Recounts the participants directory from the referral program's own
 * documents: each referrer's referrals (and the address they came with),
 * the counted conversions credited to them and their rewards at every level,
 * each referee's conversion and reward. For an install upgraded from a
 * release without the directory (`fix` fills it), and to check drift (a
 * process that died between a write and its count). A referee's address
 * is not recounted (a conversion sends it; no record keeps it). The incentive side
 * (who the engine has seen) is not recounted here: it comes from the
 * engine's events, and the coins are always read from the engine.
 */
export async function rebuildParticipants(sources: ParticipantSources, logger: Logger, options: { appId?: string; fix: boolean }): Promise<ParticipantReport> {
  const people = new Map<string, Recounted>();
  const person = (appId: string, userId: string, at: Date) => {
    let p = people.get(key(appId, userId));
    if (!p) {
      p = { appId, userId, referrals: 0, conversions: 0, rewardValue: 0, referredBy: null, convertedAt: null, first: at, last: at };
      people.set(key(appId, userId), p);
    }
    if (at < p.first) p.first = at;
    if (at > p.last) p.last = at;
    return p;
  };
  for await (const r of sources.referrals.peopleRows(options.appId)) {
    const p = person(r.appId, r.referrerId, r.createdAt);
    p.referrals += 1;
    if (r.referrerEmail) p.email = r.referrerEmail.toLowerCase();
  }
  // Oldest conversion first: a referee's latest one names their referrer.
  for await (const c of sources.conversions.countedRows(options.appId)) {
    const at = c.convertedAt ?? c.createdAt;
    const referrer = person(c.appId, c.referrerId, at);
    referrer.rewardValue += c.rewardAmount;
    if (c.level !== 1) continue;
    referrer.conversions += 1;
    const referee = person(c.appId, c.refereeId, at);
    referee.rewardValue += c.refereeRewardAmount;
    referee.referredBy = c.referrerId;
    referee.convertedAt = at;
  }

  const drifted: ParticipantDrift[] = [];
  const stored = new Map<string, ParticipantDoc>();
  for await (const doc of sources.participants.everyone(options.appId)) stored.set(key(doc.appId, doc.userId), doc);
  const off = new Set<Recounted>();
  for (const p of people.values()) {
    const doc = stored.get(key(p.appId, p.userId));
    const drift = (field: ParticipantDrift['field'], s: ParticipantDrift['stored'], e: ParticipantDrift['expected']) => {
      drifted.push({ appId: p.appId, userId: p.userId, field, stored: s, expected: e });
      off.add(p);
    };
    if (!doc) drift('missing', null, null);
    else {
      if (doc.referrals !== p.referrals) drift('referrals', doc.referrals, p.referrals);
      if (doc.conversions !== p.conversions) drift('conversions', doc.conversions, p.conversions);
      if (!closeEnough(doc.rewardValue, p.rewardValue)) drift('rewardValue', doc.rewardValue, p.rewardValue);
      if ((doc.referredBy ?? null) !== p.referredBy) drift('referredBy', doc.referredBy ?? null, p.referredBy);
    }
  }
  let fixed = 0;
  if (options.fix) {
    for (const p of off) {
      const { appId, userId, referrals, conversions, rewardValue, referredBy, convertedAt, email } = p;
      await sources.participants.setRecounted(appId, userId, { referrals, conversions, rewardValue, referredBy, convertedAt, ...(email ? { email } : {}) }, p);
      fixed += 1;
    }
  }
  if (drifted.length > 0) logger.warn({ drifted: drifted.length, fixed }, 'participants directory drifted from the referral records');
  return { participants: people.size, drifted, fixed };
}
