import type { SignalDoc } from '../signals/signal.model';
import type { NewSignal, SignalRepository } from '../signals/signal.repository';
import type { ScoringFacts } from './rules/fraud-rule';
import type { SignalWindows } from './signal-windows';

/** Referral signals kept in memory, found by code: they never change once stored (about 5 MB at this many). */
const REFERRAL_SIGNALS_KEPT = 20_000;

/**
 * Stores signals and answers the questions the rules ask about them: the
 * counts over recent traffic from the windows kept on write (SignalWindows),
 * the referrer's own signal from the store.
 */
export class SignalHistory {
  /** Referral signals by `<appId>:<code>`, oldest first (a Map keeps insertion order). */
  private readonly referralSignals = new Map<string, SignalDoc>();

  constructor(
    private readonly signals: SignalRepository,
    private readonly windows: SignalWindows,
  ) {}

  /**
   * Idempotent by the signal's subject: a rescore, a retry or another replica at the same moment stores nothing new.
   * Signals recorded at the same moment share one insert (SignalRepository.record).
   */
  record(appId: string, signal: NewSignal): Promise<void> {
    return this.signals.record(appId, signal);
  }

  /** Many signals (of any apps) in one insert; each idempotent by its subject, as in record(). Clicks go into their windows too. */
  async recordMany(signals: Array<{ appId: string; signal: NewSignal }>): Promise<void> {
    await Promise.all([this.signals.recordMany(signals), this.windows.recordClicks(signals.filter(({ signal }) => signal.kind === 'CLICK'))]);
  }

  /**
   * The facts for scoring `signal`: it joins its windows in the same round
   * trip that counts them, so concurrent events from one IP or device count
   * each other (whether or not its stored copy is written yet).
   */
  async facts(appId: string, signal: NewSignal, referrerEmail: string | null): Promise<ScoringFacts> {
    const kind = signal.kind === 'REFERRAL' ? 'REFERRAL' : 'CONVERSION';
    const [windows, referralSignal] = await Promise.all([
      this.windows.scored(appId, signal),
      kind === 'CONVERSION' ? this.referralSignalOf(appId, signal.referralCode) : null,
    ]);
    return {
      kind,
      at: signal.at,
      referrerId: signal.referrerId,
      refereeId: signal.refereeId,
      referralCode: signal.referralCode,
      actor: { ip: signal.ip, deviceId: signal.deviceId, email: signal.email },
      referrer: {
        ip: referralSignal?.ip ?? null,
        deviceId: referralSignal?.deviceId ?? null,
        email: referrerEmail ?? referralSignal?.email ?? null,
      },
      recent: { sameIp: windows.sameIp, sameDevice: windows.sameDevice, referrerConversions: windows.referrerConversions },
      lastMatchingClickAt: windows.lastMatchingClickAt,
      refereeOtherCodes: windows.refereeOtherCodes,
    };
  }

  /** The referrer's own signal of a code: kept once found (a missing one may be stored later, so it is asked again). */
  private async referralSignalOf(appId: string, referralCode: string): Promise<SignalDoc | null> {
    const key = `${appId}:${referralCode}`;
    const kept = this.referralSignals.get(key);
    if (kept) return kept;
    const found = await this.signals.referralSignalOf(appId, referralCode);
    if (found) {
      if (this.referralSignals.size >= REFERRAL_SIGNALS_KEPT) this.referralSignals.delete(this.referralSignals.keys().next().value as string);
      this.referralSignals.set(key, found);
    }
    return found;
  }
}
