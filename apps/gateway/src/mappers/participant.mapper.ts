import type { ParticipantRow } from '../people/participant-pages';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { isoTime } from './proto-json';
import { entity, from } from './entity';

const money = (n: number) => Math.round(n * 100) / 100;

/** A GET /participants item: the referral program's figures and the incentive balance of one person. */
export const Participant = entity<ParticipantRow>()('Participant', {
  userId: z.string(),
  email: from(z.string().nullable().openapi({ description: 'The latest e-mail address the app sent with this user (lower case), if any' }), (r: ParticipantRow) => r.participant?.email ?? null),
  referrals: from(z.number().int().openapi({ description: 'Referral codes the user owns' }), (r: ParticipantRow) => r.participant?.referrals ?? 0),
  conversions: from(z.number().int().openapi({ description: "Referees converted through the user's codes (level 1; rejected ones left out)" }), (r: ParticipantRow) =>
    r.participant?.conversions ?? 0,
  ),
  rewardValue: from(
    z.number().openapi({ description: 'Rewards from the referral program, as referrer (every level) and referee, less those cancelled' }),
    (r: ParticipantRow) => money(r.participant?.rewardValue ?? 0),
  ),
  referredBy: from(z.string().nullable().openapi({ description: 'The referrer of their latest counted conversion' }), (r: ParticipantRow) => r.participant?.referredBy ?? null),
  convertedAt: from(timestamp.nullable(), (r: ParticipantRow) => isoTime(r.participant?.convertedAt)),
  coins: from(z.number().openapi({ description: 'The incentive balance, as GET /incentives/balances/{userId} says it (0 without one)' }), (r: ParticipantRow) => r.balance?.coins ?? 0),
  tokens: from(z.number(), (r: ParticipantRow) => r.balance?.tokens ?? 0),
  xp: from(z.number(), (r: ParticipantRow) => r.balance?.xp ?? 0),
  level: from(z.number().int(), (r: ParticipantRow) => r.balance?.level ?? 0),
  firstSeenAt: from(timestamp.nullable().openapi({ description: 'First activity the directory recorded (null: only the incentive engine knows the user yet)' }), (r: ParticipantRow) =>
    isoTime(r.participant?.firstSeenAt),
  ),
  lastActivityAt: from(
    timestamp.nullable().openapi({ description: 'Latest activity: a referral, a conversion, an incentive event, a balance change' }),
    (r: ParticipantRow) => latest(isoTime(r.participant?.lastActivityAt), isoTime(r.balance?.updatedAt)),
  ),
});

const latest = (a: string | null, b: string | null) => (a && b ? (a > b ? a : b) : (a ?? b));
