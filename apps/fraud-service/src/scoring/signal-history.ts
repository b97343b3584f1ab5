import { isClickBy } from '../signals/signal-subject';
import type { NewSignal, SignalRepository } from '../signals/signal.repository';
import type { ScoringFacts } from './rules/fraud-rule';

export interface HistorySettings {
  velocityWindowMinutes: number;
  fastConversionSeconds: number;
  /** How far back MULTIPLE_CODES looks at a referee's other codes. */
  refereeLookbackDays: number;
}

/** Clicks on a code read to find the one FAST_CONVERSION asks about: the newest this many. */
const CLICKS_READ = 200;
/** A referee's signals read for MULTIPLE_CODES: the newest this many. */
const REFEREE_SIGNALS_READ = 500;

/** Stores signals and answers the questions the rules ask about them. */
export class SignalHistory {
  constructor(
    private readonly signals: SignalRepository,
    private readonly settings: HistorySettings,
  ) {}

  /** Idempotent by the signal's subject: a rescore, a retry or another replica at the same moment stores nothing new. */
  record(appId: string, signal: NewSignal): Promise<void> {
    return this.signals.record(appId, signal);
  }

  /** Many signals (of any apps) in one insert; each idempotent by its subject, as in record(). */
  recordMany(signals: Array<{ appId: string; signal: NewSignal }>): Promise<void> {
    return this.signals.recordMany(signals);
  }

  /**
   * The facts for scoring `signal` (already recorded): recorded first so
   * that concurrent events from one IP or device count each other.
   */
  async facts(appId: string, signal: NewSignal, referrerEmail: string | null): Promise<ScoringFacts> {
    const kind = signal.kind === 'REFERRAL' ? 'REFERRAL' : 'CONVERSION';
    const at = signal.at;
    const window = { from: new Date(at.getTime() - this.settings.velocityWindowMinutes * 60_000), to: at };
    const subject = signal._id;
    const lookback = { from: new Date(at.getTime() - this.settings.refereeLookbackDays * 86_400_000), to: at };
    const fastWindow = { from: new Date(at.getTime() - this.settings.fastConversionSeconds * 1000), to: at };

    const [sameIp, sameDevice, referrerConversions, referralSignal, recentClicks, refereeSignals] = await Promise.all([
      signal.ip ? this.signals.countFromIp(appId, signal.ip, signal.kind, window, subject) : 0,
      signal.deviceId ? this.signals.countFromDevice(appId, signal.deviceId, signal.kind, window, subject) : 0,
      kind === 'CONVERSION' ? this.signals.countReferrerConversions(appId, signal.referrerId, window, subject) : 0,
      kind === 'CONVERSION' ? this.signals.referralSignalOf(appId, signal.referralCode) : null,
      kind === 'CONVERSION' ? this.signals.clicksOnCode(appId, signal.referralCode, fastWindow, CLICKS_READ) : [],
      kind === 'CONVERSION' && signal.refereeId ? this.signals.refereeActivity(appId, signal.refereeId, lookback, subject, REFEREE_SIGNALS_READ) : [],
    ]);

    const matchingClick = recentClicks.find((click) => isClickBy(click, signal));
    const otherCodes = (kindOf: NewSignal['kind']) =>
      new Set(refereeSignals.filter((s) => s.kind === kindOf && s.referralCode !== signal.referralCode).map((s) => s.referralCode)).size;

    return {
      kind,
      at,
      referrerId: signal.referrerId,
      refereeId: signal.refereeId,
      referralCode: signal.referralCode,
      actor: { ip: signal.ip, deviceId: signal.deviceId, email: signal.email },
      referrer: {
        ip: referralSignal?.ip ?? null,
        deviceId: referralSignal?.deviceId ?? null,
        email: referrerEmail ?? referralSignal?.email ?? null,
      },
      recent: { sameIp, sameDevice, referrerConversions },
      lastMatchingClickAt: matchingClick?.at ?? null,
      refereeOtherCodes: { converted: otherCodes('CONVERSION'), clicked: otherCodes('CLICK') },
    };
  }
}
