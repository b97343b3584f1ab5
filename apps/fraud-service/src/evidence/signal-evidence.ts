import type { EnumName, SharedAttribute as SharedAttributeEnum } from '@ris/contracts';
import { isClickBy } from '../signals/signal-subject';
import type { SignalDoc } from '../signals/signal.model';
import type { ContextAttribute, SignalRepository } from '../signals/signal.repository';

/** IP, DEVICE_ID or EMAIL: the names of the contract's SharedAttribute. */
export type SharedAttribute = EnumName<typeof SharedAttributeEnum>;

export interface LinkedSignal {
  signal: SignalDoc;
  shared: SharedAttribute[];
}

export interface Evidence {
  /** The subject's own signal: its context and time as scored. */
  subject: SignalDoc;
  /** Conversions: the latest click on the code by the same referee, device or IP before it. */
  click: SignalDoc | null;
  linked: LinkedSignal[];
}

export interface EvidenceSettings {
  velocityWindowMinutes: number;
  /** How far before a conversion its click is looked for (the MULTIPLE_CODES lookback). */
  refereeLookbackDays: number;
}

/** Clicks of a code read to find the one before a conversion: the newest this many. */
const CLICKS_READ = 200;

const sameEmail = (a: string | null, b: string | null) => a !== null && b !== null && a.toLowerCase() === b.toLowerCase();

/**
 * What the stored signals say about one scored referral or conversion, for
 * the review of its flag: the subject's signal, the click before a
 * conversion, and the other signals that share its IP address, device or
 * email address within the velocity window before or after it (what the
 * velocity rules counted, and what came next). For a conversion, the
 * referrer's own referral signal comes first when it shares one of them
 * (what SAME_IP, SAME_DEVICE and the email rules compared), however old.
 *
 * Every read is one indexed query (an equality on the attribute, a range
 * of time), bounded by `limit`.
 */
export class SignalEvidence {
  constructor(
    private readonly signals: SignalRepository,
    private readonly settings: EvidenceSettings,
  ) {}

  get windowMinutes(): number {
    return this.settings.velocityWindowMinutes;
  }

  /** Null when no signal of the subject (signal-subject.ts) is stored. */
  async of(appId: string, subjectId: string, limit: number): Promise<Evidence | null> {
    const subject = await this.signals.ofSubject(appId, subjectId);
    if (!subject) return null;
    const window = this.settings.velocityWindowMinutes * 60_000;
    const around = { from: new Date(subject.at.getTime() - window), to: new Date(subject.at.getTime() + window) };
    const byAttribute: Array<[SharedAttribute, ContextAttribute]> = [
      ['IP', 'ip'],
      ['DEVICE_ID', 'deviceId'],
      ['EMAIL', 'email'],
    ];
    const [referrerSignal, click, ...found] = await Promise.all([
      subject.kind === 'CONVERSION' ? this.signals.referralSignalOf(appId, subject.referralCode) : null,
      subject.kind === 'CONVERSION' ? this.clickBefore(appId, subject) : null,
      ...byAttribute.map(([, field]) => {
        const value = subject[field];
        return value ? this.signals.sharing(appId, field, value, around, limit + 1) : [];
      }),
    ]);

    const linked = new Map<string, LinkedSignal>();
    const link = (signal: SignalDoc, attribute: SharedAttribute) => {
      if (signal._id === subject._id) return;
      const entry = linked.get(signal._id) ?? { signal, shared: [] };
      if (!entry.shared.includes(attribute)) entry.shared.push(attribute);
      linked.set(signal._id, entry);
    };
    if (referrerSignal) {
      if (subject.ip !== null && referrerSignal.ip === subject.ip) link(referrerSignal, 'IP');
      if (subject.deviceId !== null && referrerSignal.deviceId === subject.deviceId) link(referrerSignal, 'DEVICE_ID');
      if (sameEmail(subject.email, referrerSignal.email)) link(referrerSignal, 'EMAIL');
    }
    const first = [...linked.values()];
    found.forEach((signals, i) => signals.forEach((signal) => link(signal, byAttribute[i][0])));
    const rest = [...linked.values()].filter((entry) => !first.includes(entry)).sort((a, b) => b.signal.at.getTime() - a.signal.at.getTime() || (a.signal._id < b.signal._id ? 1 : -1));
    return { subject, click, linked: [...first, ...rest].slice(0, limit) };
  }

  /** The latest click on the conversion's code by its referee, device or IP before it (FAST_CONVERSION's question, further back). */
  private async clickBefore(appId: string, conversion: SignalDoc): Promise<SignalDoc | null> {
    const since = new Date(conversion.at.getTime() - this.settings.refereeLookbackDays * 86_400_000);
    const clicks = await this.signals.clicksOnCode(appId, conversion.referralCode, { from: since, to: conversion.at }, CLICKS_READ);
    return clicks.find((click) => isClickBy(click, conversion)) ?? null;
  }
}
