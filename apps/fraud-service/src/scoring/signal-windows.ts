import type { Redis } from 'ioredis';
import type { NewSignal } from '../signals/signal.repository';

export interface WindowSettings {
  velocityWindowMinutes: number;
  fastConversionSeconds: number;
  refereeLookbackDays: number;
}

/** What the windows answer about one scored signal (already added to them). */
export interface WindowFacts {
  /** Other signals of the kind from the IP, the device, and (conversions) of the referrer, in the velocity window. */
  sameIp: number;
  sameDevice: number;
  referrerConversions: number;
  /** The latest click on the code by the same referee, device or IP in the fast-conversion window before `at`. */
  lastMatchingClickAt: Date | null;
  /** Other codes the referee converted through, and clicked with their id, in the lookback. */
  refereeOtherCodes: { converted: number; clicked: number };
}

type Attribute = 'refereeId' | 'deviceId' | 'ip';
const CLICK_ATTRIBUTES: readonly Attribute[] = ['refereeId', 'deviceId', 'ip'];

/** Keys outlive their window by this much, so a late rescore of a recent event still finds its neighbours. */
const SLACK_MS = 60_000;

/**
 * The velocity questions of the rules, answered from counters kept on
 * write in Redis instead of queries over the stored signals (each scored
 * event used to cost five queries whose work grew with the traffic of an
 * IP, a device, a referrer or a code). Each window is a sorted set scored
 * by the event's time, trimmed to its length and expiring with it:
 *
 * - velocity: the subjects of one kind per IP, device and referrer
 *   (member: the subject, added once (NX), so a rescore, a retry or a
 *   replica scoring the same subject counts it once, as the stored
 *   signal's unique _id did);
 * - fast conversion: the clicks on a code per referee, device and IP;
 * - multiple codes: the codes a referee clicked and converted through
 *   (member: the code, at its latest time).
 *
 * A signal is added before its own counts are read (one pipeline), so two
 * events scored at once count each other, as before. The stored signals
 * stay the record (a flag's evidence reads them). Redis is shared by the
 * replicas, so the counts are global; if it is down, scoring fails and the
 * referral service defers the check (scored later by its recovery pass);
 * if it loses its data, the windows restart empty (events of the lost
 * window go uncounted).
 */
export class SignalWindows {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly settings: WindowSettings,
  ) {}

  private key(appId: string, ...parts: string[]): string {
    return `${this.prefix}fraud:${appId}:${parts.join(':')}`;
  }

  private get velocityMs(): number {
    return this.settings.velocityWindowMinutes * 60_000;
  }

  private get fastMs(): number {
    return this.settings.fastConversionSeconds * 1000;
  }

  private get lookbackMs(): number {
    return this.settings.refereeLookbackDays * 86_400_000;
  }

  /** The velocity windows a signal counts in: per IP and device (its kind), per referrer (conversions). */
  private velocityKeys(appId: string, signal: NewSignal): Record<'ip' | 'device' | 'referrer', string | null> {
    return {
      ip: signal.ip ? this.key(appId, 'v', signal.kind, 'ip', signal.ip) : null,
      device: signal.deviceId ? this.key(appId, 'v', signal.kind, 'device', signal.deviceId) : null,
      referrer: signal.kind === 'CONVERSION' ? this.key(appId, 'v', 'CONVERSION', 'referrer', signal.referrerId) : null,
    };
  }

  private clickKey(appId: string, code: string, attribute: Attribute, value: string): string {
    return this.key(appId, 'click', code, attribute, value);
  }

  private refereeKey(appId: string, refereeId: string, kind: 'CLICK' | 'CONVERSION'): string {
    return this.key(appId, 'referee', kind, refereeId);
  }

  /** Adds `member` at `at` to a window of `lengthMs`, trimming what fell out of it and renewing its expiry. */
  private add(pipeline: ReturnType<Redis['pipeline']>, key: string, member: string, at: number, lengthMs: number, latest = false): void {
    if (latest) pipeline.zadd(key, 'GT', at, member);
    else pipeline.zadd(key, 'NX', at, member);
    pipeline.zremrangebyscore(key, '-inf', `(${Date.now() - lengthMs - SLACK_MS}`);
    pipeline.pexpire(key, lengthMs + SLACK_MS);
  }

  /** Clicks (many, of any apps, from one batch): into the fast-conversion windows of their code and the referee's clicked codes. */
  async recordClicks(clicks: Array<{ appId: string; signal: NewSignal }>): Promise<void> {
    if (clicks.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const { appId, signal } of clicks) {
      const at = signal.at.getTime();
      for (const attribute of CLICK_ATTRIBUTES) {
        const value = signal[attribute];
        if (value) this.add(pipeline, this.clickKey(appId, signal.referralCode, attribute, value), signal._id, at, this.fastMs);
      }
      if (signal.refereeId) this.add(pipeline, this.refereeKey(appId, signal.refereeId, 'CLICK'), signal.referralCode, at, this.lookbackMs, true);
    }
    await exec(pipeline);
  }

  /**
   * Adds a referral's or conversion's signal to its windows and answers
   * its facts, in one round trip: the counts exclude the signal itself.
   */
  async scored(appId: string, signal: NewSignal): Promise<WindowFacts> {
    const at = signal.at.getTime();
    const pipeline = this.redis.pipeline();
    // Commands queued so far: a read's reply is at its position in the pipeline.
    let queued = 0;
    const write = (key: string, member: string, lengthMs: number, latest = false) => {
      this.add(pipeline, key, member, at, lengthMs, latest);
      queued += 3;
    };
    const read = (queue: () => void): number => {
      queue();
      return queued++;
    };
    const velocity = this.velocityKeys(appId, signal);
    const counted: Partial<Record<keyof typeof velocity, { count: number; own: number }>> = {};
    for (const [name, key] of Object.entries(velocity) as Array<[keyof typeof velocity, string | null]>) {
      if (!key) continue;
      write(key, signal._id, this.velocityMs);
      counted[name] = {
        count: read(() => pipeline.zcount(key, at - this.velocityMs, at)),
        own: read(() => pipeline.zscore(key, signal._id)),
      };
    }
    const conversion = signal.kind === 'CONVERSION';
    const clicks: number[] = [];
    let refereeCodes: { converted: number; clicked: number } | null = null;
    if (conversion) {
      for (const attribute of CLICK_ATTRIBUTES) {
        const value = signal[attribute];
        if (!value) continue;
        const key = this.clickKey(appId, signal.referralCode, attribute, value);
        clicks.push(read(() => pipeline.zrevrangebyscore(key, at, at - this.fastMs, 'WITHSCORES', 'LIMIT', 0, 1)));
      }
      if (signal.refereeId) {
        const converted = this.refereeKey(appId, signal.refereeId, 'CONVERSION');
        const clicked = this.refereeKey(appId, signal.refereeId, 'CLICK');
        write(converted, signal.referralCode, this.lookbackMs, true);
        refereeCodes = {
          converted: read(() => pipeline.zrangebyscore(converted, at - this.lookbackMs, at)),
          clicked: read(() => pipeline.zrangebyscore(clicked, at - this.lookbackMs, at)),
        };
      }
    }
    const replies = await exec(pipeline);

    const count = (name: keyof typeof velocity): number => {
      const c = counted[name];
      if (!c) return 0;
      const own = replies[c.own] === null ? null : Number(replies[c.own]);
      // The signal's own entry (possibly from an earlier scoring of the subject) is not a neighbour.
      const ownInWindow = own !== null && own >= at - this.velocityMs && own <= at;
      return Number(replies[c.count]) - (ownInWindow ? 1 : 0);
    };
    let lastClick: number | null = null;
    for (const index of clicks) {
      const reply = replies[index] as string[];
      if (reply.length === 2 && (lastClick === null || Number(reply[1]) > lastClick)) lastClick = Number(reply[1]);
    }
    const otherCodes = (index: number | undefined) =>
      index === undefined ? 0 : (replies[index] as string[]).filter((code) => code !== signal.referralCode).length;
    return {
      sameIp: count('ip'),
      sameDevice: count('device'),
      referrerConversions: count('referrer'),
      lastMatchingClickAt: lastClick === null ? null : new Date(lastClick),
      refereeOtherCodes: { converted: otherCodes(refereeCodes?.converted), clicked: otherCodes(refereeCodes?.clicked) },
    };
  }
}

/** A pipeline's replies; the first failed command fails the lot. */
async function exec(pipeline: ReturnType<Redis['pipeline']>): Promise<unknown[]> {
  const results = (await pipeline.exec()) ?? [];
  return results.map(([err, reply]) => {
    if (err) throw err;
    return reply;
  });
}
