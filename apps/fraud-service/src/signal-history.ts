import type { Connection } from 'mongoose';
import { AppScoped, isDuplicateKeyError } from '@ris/mongo';
import type { ScoringFacts } from './rules/fraud-rule';
import { signalModel, type SignalDoc } from './signal.model';

export interface HistorySettings {
  velocityWindowMinutes: number;
  fastConversionSeconds: number;
  /** How far back MULTIPLE_CODES looks at a referee's other codes. */
  refereeLookbackDays: number;
}

export type NewSignal = Omit<SignalDoc, 'appId'>;

/** A signal's _id: its subject's, under its app. */
export const storedId = (appId: string, id: string) => `${appId}:${id}`;

/** Stores signals and answers the questions the rules ask about them. */
export class SignalHistory {
  private readonly signals: AppScoped<SignalDoc>;

  constructor(
    db: Connection,
    private readonly settings: HistorySettings,
  ) {
    this.signals = new AppScoped(signalModel(db));
  }

  /**
   * Idempotent by the signal id: a rescore or retry keeps the first one
   * (an insert under the unique _id; inserts cost no scan on FerretDB,
   * where an upsert would read the whole collection). Stored under
   * `${appId}:${id}`, so it is the app's by construction.
   */
  async record(appId: string, signal: NewSignal): Promise<void> {
    try {
      await this.signals.create(appId, { ...signal, _id: storedId(appId, signal._id) });
    } catch (err) {
      // Recorded before (a retry, a rescore, or another replica at the same moment).
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  /** Many signals (of any apps) in one insert; each idempotent by its id, as in record(). */
  async recordMany(signals: Array<{ appId: string; signal: NewSignal }>): Promise<void> {
    try {
      await this.signals.insertMany(signals.map(({ appId, signal }) => ({ ...signal, appId, _id: storedId(appId, signal._id) })));
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  /**
   * The facts for scoring `signal` (already recorded): recorded first so
   * that concurrent events from one IP or device count each other.
   */
  async facts(
    appId: string,
    signal: NewSignal,
    referrerEmail: string | null,
  ): Promise<ScoringFacts> {
    const kind = signal.kind === 'REFERRAL' ? 'REFERRAL' : 'CONVERSION';
    const at = signal.at;
    const windowStart = new Date(at.getTime() - this.settings.velocityWindowMinutes * 60_000);
    const inWindow = { $gte: windowStart, $lte: at };
    const others = { _id: { $ne: storedId(appId, signal._id) } };
    const lookbackStart = new Date(at.getTime() - this.settings.refereeLookbackDays * 86_400_000);

    const [sameIp, sameDevice, referrerConversions, referralSignal, recentClicks, refereeSignals] = await Promise.all([
      signal.ip ? this.signals.count(appId, { ...others, ip: signal.ip, kind: signal.kind, at: inWindow }) : 0,
      signal.deviceId ? this.signals.count(appId, { ...others, deviceId: signal.deviceId, kind: signal.kind, at: inWindow }) : 0,
      kind === 'CONVERSION'
        ? this.signals.count(appId, { ...others, referrerId: signal.referrerId, kind: 'CONVERSION', at: inWindow })
        : 0,
      kind === 'CONVERSION' ? this.signals.findOne(appId, { referralCode: signal.referralCode, kind: 'REFERRAL' }) : null,
      kind === 'CONVERSION'
        ? this.signals.find(
            appId,
            {
              referralCode: signal.referralCode,
              kind: 'CLICK',
              at: { $gte: new Date(at.getTime() - this.settings.fastConversionSeconds * 1000), $lte: at },
            },
            { sort: { at: -1 }, limit: 200 },
          )
        : [],
      kind === 'CONVERSION' && signal.refereeId
        ? this.signals.find(
            appId,
            { ...others, refereeId: signal.refereeId, kind: { $in: ['CLICK', 'CONVERSION'] }, at: { $gte: lookbackStart, $lte: at } },
            { sort: { at: -1 }, limit: 500 },
          )
        : [],
    ]);

    const matchingClick = recentClicks.find(
      (click) =>
        (signal.refereeId !== null && click.refereeId === signal.refereeId) ||
        (signal.deviceId !== null && click.deviceId === signal.deviceId) ||
        (signal.ip !== null && click.ip === signal.ip),
    );
    const otherCodes = (kindOf: SignalDoc['kind']) =>
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
