import { timestampDate } from '@bufbuild/protobuf/wkt';
import {
  FraudDecision,
  FraudFlagStatus,
  FraudFlagSubject,
  SharedAttribute,
  SignalKind,
  type FraudEvidence as FraudEvidenceMessage,
  type FraudFlag as FraudFlagMessage,
  type FraudFlagResolver as FraudFlagResolverMessage,
  type LinkedRecord,
} from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';
import { isoTime } from './proto-json';

export const FraudFlagStatuses = publicEnum(FraudFlagStatus);
export const FraudFlagSubjects = publicEnum(FraudFlagSubject);
export const FraudDecisions = publicEnum(FraudDecision);
const SignalKinds = publicEnum(SignalKind);

/**
 * What each reason code means, in words a reviewer reads (the codes are
 * stable; the fraud service's rules raise them; the limits are its settings).
 */
export const REASON_SENTENCES: Record<string, string> = {
  SELF_REFERRAL: 'The referee is the referrer: the same user id, or (on a conversion) the same email address.',
  EMAIL_ALIAS: "The referee's email address is an alias of the referrer's: the same once dots and +tags are removed.",
  SAME_DEVICE: "The referee converted from the referrer's device.",
  SAME_IP: "The referee converted from the referrer's IP address (weak alone: offices and carriers share addresses).",
  IP_VELOCITY: 'Unusually many referrals or conversions came from this IP address within the velocity window (by default more than 5 in 60 minutes).',
  DEVICE_VELOCITY: 'Unusually many referrals or conversions came from this device within the velocity window (by default more than 3 in 60 minutes).',
  REFERRER_VELOCITY: 'The referrer collected conversions faster than people do (by default more than 10 in 60 minutes).',
  FAST_CONVERSION: 'The referee converted within seconds of clicking the link (by default under 10 s), as scripted sign-ups do.',
  DISPOSABLE_EMAIL: 'The email address is at a disposable (throw-away) mail domain.',
  MULTIPLE_CODES: "The referee already converted through another code, or used several other referrers' codes recently.",
};

const reasonsDescription =
  'Stable reason codes, strongest first. What each means: ' +
  Object.entries(REASON_SENTENCES)
    .map(([code, sentence]) => `${code}: ${sentence}`)
    .join(' ');

const FraudFlagResolver = entity<FraudFlagResolverMessage>()('FraudFlagResolver', { operatorId: z.string(), email: z.string() });

export const FraudFlag = entity<FraudFlagMessage>()('FraudFlag', {
  id: z.string(),
  type: from(FraudFlagSubjects.schema, (f: FraudFlagMessage) => FraudFlagSubjects.name(f.subject)),
  status: FraudFlagStatuses.field(),
  campaignId: z.string(),
  referralId: z.string(),
  referralCode: z.string(),
  conversionId: z.string().nullable(),
  referrerId: z.string(),
  refereeId: z.string().nullable(),
  riskScore: z.number().int().openapi({ description: '0..100: the weights of the rules that fired, summed and capped' }),
  reasons: z.array(z.string()).openapi({ description: reasonsDescription }),
  warning: z.string().openapi({ description: 'One human sentence naming what each rule found' }),
  note: z.string().nullable(),
  createdAt: time(timestamp),
  resolvedAt: time(timestamp.nullable()),
  resolvedBy: from(
    FraudFlagResolver.schema.nullable().openapi({ description: 'The dashboard operator who resolved the flag; null while open, or when an API key resolved it.' }),
    (f: FraudFlagMessage) => (f.resolvedBy ? FraudFlagResolver.json(f.resolvedBy) : null),
  ),
});

/** A shared attribute as the name of the signal field it is. */
const SIGNAL_FIELD: Record<SharedAttribute, 'ip' | 'deviceId' | 'email' | null> = {
  [SharedAttribute.UNSPECIFIED]: null,
  [SharedAttribute.IP]: 'ip',
  [SharedAttribute.DEVICE_ID]: 'deviceId',
  [SharedAttribute.EMAIL]: 'email',
};
const SIGNAL_FIELDS = ['ip', 'deviceId', 'email'] as const;

const FraudLinkedRecord = entity<LinkedRecord>()('FraudLinkedRecord', {
  kind: SignalKinds.field(),
  id: z.string().nullable().openapi({ description: 'The referral, click or conversion id; null when that attempt was refused after its fraud check and never stored' }),
  campaignId: z.string(),
  referralCode: z.string(),
  referrerId: z.string(),
  refereeId: z.string().nullable(),
  shared: from(z.array(z.enum(SIGNAL_FIELDS)).openapi({ description: 'Which of the signals it has in common (the same value as sent)' }), (l: LinkedRecord) =>
    l.shared.map((attribute) => SIGNAL_FIELD[attribute]).filter((field) => field !== null),
  ),
  at: time(timestamp),
});

const occurredAt = (e: FraudEvidenceMessage) => (e.occurredAt ? timestampDate(e.occurredAt) : null);

/** GET /fraud/flags/{flagId}'s evidence: the subject's signals, the click before a conversion, the linked records. */
export const FraudEvidence = entity<FraudEvidenceMessage>()('FraudEvidence', {
  signals: from(
    z
      .union([
        z
          .object({
            ip: z.string().nullable(),
            userAgent: z.string().nullable(),
            deviceId: z.string().nullable(),
            email: z.string().nullable(),
            at: timestamp.openapi({ description: 'When the referral was created or the conversion happened' }),
          })
          .openapi('FraudSignals'),
        z.null(),
      ])
      .openapi({
        description:
          "The flagged referral's referrer or the converting referee, as the request's context described them when scored; null when the fraud service kept no signal of it",
      }),
    (e: FraudEvidenceMessage) => {
      const at = occurredAt(e);
      return e.found && at
        ? { ip: e.context?.ip ?? null, userAgent: e.context?.userAgent ?? null, deviceId: e.context?.deviceId ?? null, email: e.context?.email ?? null, at: at.toISOString() }
        : null;
    },
  ),
  click: from(
    z
      .union([
        z
          .object({
            clickId: z.string(),
            clickedAt: timestamp,
            secondsToConversion: z.number().openapi({ description: 'From this click to the conversion' }),
          })
          .openapi('FraudEvidenceClick'),
        z.null(),
      ])
      .openapi({ description: 'Conversions: the latest click on the code by the same referee, device or IP address before it; else null' }),
    (e: FraudEvidenceMessage) => {
      const at = occurredAt(e);
      return e.clickId && e.clickedAt && at
        ? { clickId: e.clickId, clickedAt: isoTime(e.clickedAt) ?? '', secondsToConversion: (at.getTime() - timestampDate(e.clickedAt).getTime()) / 1000 }
        : null;
    },
  ),
  linked: from(
    z.array(FraudLinkedRecord.schema).openapi({
      description:
        "At most 20 other records of the app sharing the IP address, device or email: on a conversion, first the referrer's own referral " +
        'when it shares one (what SAME_IP, SAME_DEVICE and the email rules compared); then those within the velocity window before or after it, newest first',
    }),
    (e: FraudEvidenceMessage) => e.linked.map(FraudLinkedRecord.json),
  ),
  windowMinutes: z.number().int().openapi({ description: "The fraud service's velocity window" }),
});

export const fraudFlagJson = FraudFlag.json;
export const fraudEvidenceJson = FraudEvidence.json;
