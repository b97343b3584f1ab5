import type { Connection, FilterQuery, Model } from 'mongoose';
import type { Logger } from '@ris/logging';
import { newId, type Page, type PageQuery } from '@ris/mongo';
import type { OperatorIdentity, Role } from '../access/principal';
import { auditEntryModel, type AuditEntryRecord } from './audit-entry.model';
import { redactSecrets } from './redaction';

export interface AuditTarget {
  type: string;
  id: string;
}

export interface AuditStart {
  /** The app changed; null when only the answer names it (an app being created). */
  appId: string | null;
  operator: OperatorIdentity;
  action: string;
  summary: string;
  target: AuditTarget | null;
  /** The resource as its own GET route answered before the change; undefined when it has none or had nothing. */
  before: unknown;
  readRole: Role;
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(redactSecrets(value)));

/**
 * One change being made: begun before it runs (so a process that dies
 * during it leaves a PENDING entry, not nothing), then marked by how it
 * ended.
 */
export class AuditRecording {
  constructor(
    private readonly entries: Model<AuditEntryRecord>,
    private readonly logger: Logger,
    private readonly start: AuditStart,
    private readonly entryId: string,
    private readonly inserted: boolean,
  ) {}

  /** The change answered 2xx: the answer is the after (and names the target when the path did not). */
  async succeeded(after: unknown, found: { target?: AuditTarget | null; appId?: string }): Promise<void> {
    const target = this.start.target ?? found.target ?? null;
    const fields = { outcome: 'SUCCEEDED' as const, afterJson: json(after), targetType: target?.type ?? null, targetId: target?.id ?? null };
    await this.write(async () => {
      if (this.inserted) {
        await this.entries.updateOne({ _id: this.entryId }, { $set: fields }).exec();
        return;
      }
      const appId = found.appId ?? this.start.appId;
      if (!appId) return;
      await this.entries.create(entryOf(this.entryId, { ...this.start, appId }, fields));
    });
  }

  /** Refused (4xx), or a replay of an earlier answer: nothing changed now, so nothing to keep. */
  async discard(): Promise<void> {
    if (this.inserted) await this.write(() => this.entries.deleteOne({ _id: this.entryId }).exec());
  }

  /** Failed without saying whether it took effect (5xx): kept as UNKNOWN. */
  async unknown(): Promise<void> {
    if (this.inserted) await this.write(() => this.entries.updateOne({ _id: this.entryId }, { $set: { outcome: 'UNKNOWN' } }).exec());
  }

  private async write(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (err) {
      // The change is made; its entry stays PENDING (or missing, for an app's creation). Said loudly.
      this.logger.error({ err, auditEntryId: this.entryId, action: this.start.action }, 'could not complete an audit entry');
    }
  }
}

function entryOf(id: string, start: AuditStart & { appId: string }, fields: Partial<AuditEntryRecord> = {}): AuditEntryRecord {
  return {
    _id: id,
    appId: start.appId,
    at: new Date(),
    operatorId: start.operator.operatorId,
    operatorEmail: start.operator.email,
    action: start.action,
    summary: start.summary,
    targetType: start.target?.type ?? null,
    targetId: start.target?.id ?? null,
    beforeJson: json(start.before),
    afterJson: null,
    outcome: 'PENDING',
    readRole: start.readRole,
    ...fields,
  };
}

export interface AuditQuery extends PageQuery {
  operatorId?: string;
  action?: string;
  /** Roles whose entries the reader may see. */
  readRoles: Role[];
}

/** The audit log of operator changes, in the gateway's database. */
export class AuditTrail {
  private readonly entries: Model<AuditEntryRecord>;

  constructor(
    db: Connection,
    private readonly logger: Logger,
  ) {
    this.entries = auditEntryModel(db);
  }

  /**
   * Writes the PENDING entry of a change about to run. A change whose entry
   * cannot be written does not run (the error is the request's): no
   * operator change goes unrecorded.
   */
  async begin(start: AuditStart): Promise<AuditRecording> {
    const id = newId('aud');
    if (start.appId) await this.entries.create(entryOf(id, { ...start, appId: start.appId }));
    return new AuditRecording(this.entries, this.logger, start, id, start.appId !== null);
  }

  async list(appId: string, query: AuditQuery): Promise<Page<AuditEntryRecord>> {
    const filter: FilterQuery<AuditEntryRecord> = { appId, readRole: { $in: query.readRoles } };
    if (query.operatorId) filter.operatorId = query.operatorId;
    if (query.action) filter.action = query.action;
    const [items, totalItems] = await Promise.all([
      this.entries
        .find(filter)
        .sort({ at: -1, _id: -1 })
        .skip((query.page - 1) * query.limit)
        .limit(query.limit)
        .lean<AuditEntryRecord[]>()
        .exec(),
      this.entries.countDocuments(filter).exec(),
    ]);
    return { items, page: query.page, limit: query.limit, totalItems };
  }
}
