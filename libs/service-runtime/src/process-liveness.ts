import { Schema, type Connection, type Model } from 'mongoose';
import { newId } from '@ris/mongo';

interface HeartbeatDoc {
  /** The instance id of one process of the service. */
  _id: string;
  beatAt: Date;
}

const heartbeatSchema = new Schema<HeartbeatDoc>(
  { _id: { type: String, required: true }, beatAt: { type: Date, required: true } },
  { collection: 'process_heartbeats', versionKey: false },
);
// No index: the collection holds one document per running (or recently
// dead) process of the service, and is always read whole.

/** Who holds a lease (this process's id) and whether another holder still lives: what lease-holding work needs of ProcessLiveness. */
export interface HolderLiveness {
  readonly instanceId: string;
  isAlive(instanceId: string | null | undefined): Promise<boolean>;
}

/** Holders are never taken for dead: leases alone decide (code run without a process of its own, e.g. maintenance commands). */
export const LEASES_ONLY: HolderLiveness = { instanceId: 'leases-only', isAlive: () => Promise.resolve(true) };

export interface ProcessLivenessOptions {
  /** How often this process beats. */
  beatMs?: number;
  /** A process that has not beaten for this long is dead. */
  staleMs?: number;
}

/**
 * Which processes of this service are alive. Each beats a document in the
 * service's database every second; one that has not beaten for `staleMs`
 * (5 s) is dead. Work a process holds under a lease (a redemption, an
 * event claim) records its instance id, so when that process dies the work
 * is taken over within seconds instead of when its lease runs out.
 *
 * A live process wrongly taken for dead (a stall of several seconds) only
 * costs a spurious retry: every takeover is a conditional move, and the
 * slow worker's next move then fails.
 */
export class ProcessLiveness implements HolderLiveness {
  readonly instanceId = newId('proc');
  private readonly model: Model<HeartbeatDoc>;
  private readonly beatMs: number;
  private readonly staleMs: number;
  private timer?: NodeJS.Timeout;
  private alive?: { at: number; ids: Promise<Set<string>> };

  constructor(db: Connection, options: ProcessLivenessOptions = {}) {
    this.model = (db.models.ProcessHeartbeat as Model<HeartbeatDoc> | undefined) ?? db.model<HeartbeatDoc>('ProcessHeartbeat', heartbeatSchema);
    this.beatMs = options.beatMs ?? 1000;
    this.staleMs = options.staleMs ?? 5000;
  }

  /** Beats once (so this process counts as alive before it takes any work), then every beatMs. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch(() => undefined), this.beatMs);
    this.timer.unref();
  }

  /** A stopping process is gone at once: what it still holds is taken over without waiting. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.model.deleteOne({ _id: this.instanceId }).exec().catch(() => undefined);
  }

  /**
   * Whether the process that took some work is still alive. Ids of no
   * known process (older records without one, or long gone) are dead.
   */
  async isAlive(instanceId: string | null | undefined): Promise<boolean> {
    if (!instanceId) return false;
    if (instanceId === this.instanceId) return true;
    return (await this.aliveIds()).has(instanceId);
  }

  /** The live instances, read at most every half beat (the collection is tiny, but takeovers can come in bursts). */
  private aliveIds(): Promise<Set<string>> {
    const now = Date.now();
    if (!this.alive || now - this.alive.at > this.beatMs / 2) {
      const ids = this.model
        .find({})
        .lean<HeartbeatDoc[]>()
        .exec()
        .then((docs) => new Set(docs.filter((d) => now - d.beatAt.getTime() < this.staleMs).map((d) => d._id)));
      // A failed read is not kept: the next call reads again.
      ids.catch(() => (this.alive = undefined));
      this.alive = { at: now, ids };
    }
    return this.alive.ids;
  }

  private async beat(): Promise<void> {
    const now = new Date();
    await this.model.updateOne({ _id: this.instanceId }, { $set: { beatAt: now } }, { upsert: true }).exec();
    // Heartbeats of processes dead for an hour are of no use to anyone.
    if (Math.random() < 0.01) {
      await this.model.deleteMany({ beatAt: { $lt: new Date(now.getTime() - 3_600_000) } }).exec();
    }
  }
}
